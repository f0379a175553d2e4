// A tool with side effects asks the person at the terminal while `ironbees run` follows the run;
// --yes approves it; once nobody follows the run (or stdin has ended), it is refused.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/app';
import type { CliDeps, RuntimeOptions } from '../../../src/cli/app';
import { ToolApprovalRelay } from '../../../src/cli/tool-approvals';
import type { ToolApprovalVerdict } from '../../../src/core/tools/types';
import { FakeOrchestrator, fsHost, testIo } from './fakes';
import { makeState } from './fixtures';

const REQUEST = {
  tool: 'mcp__team__post',
  input: { channel: '#dev', text: 'deploying' },
  description: 'Posts to a channel',
  runId: 'run-1',
};

describe('tool approvals in the terminal', () => {
  let workspace: string;
  let options: RuntimeOptions | null;
  let verdicts: ToolApprovalVerdict[];

  beforeEach(async () => {
    workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-cli-tools-'));
    options = null;
    verdicts = [];
  });
  afterEach(() => fs.rm(workspace, { recursive: true, force: true }));

  /** A run whose planner calls a tool with side effects once, then succeeds. */
  function deps(): Partial<CliDeps> {
    const orchestrator = new FakeOrchestrator(async function* () {
      yield makeState({ currentNode: 'PLAN' });
      assert.ok(options?.askToolApproval, 'the run command hands the orchestrator a way to ask');
      verdicts.push(await options.askToolApproval(REQUEST));
      yield makeState({ currentNode: 'SUCCESS' });
    });
    return {
      createRuntime: async (given) => ((options = given), { host: fsHost(given.workspaceRoot), orchestrator }),
      createHost: (root) => fsHost(root),
    };
  }

  it('--yes approves without asking', async () => {
    const io = testIo([], workspace);
    assert.equal(await runCli(['run', 'Post it', '--yes'], io, deps()), 0, io.err());
    assert.deepEqual(verdicts, [{ approved: true }]);
    assert.doesNotMatch(io.err(), /Allow this call/);
  });

  it('asks, shows the call, insists on y or n, and passes a "no" on with its reason', async () => {
    const io = testIo(['maybe', 'n', 'not before the release'], workspace);
    assert.equal(await runCli(['run', 'Post it'], io, deps()), 0, io.err());
    assert.deepEqual(verdicts, [{ approved: false, reason: 'not before the release' }]);
    assert.match(io.err(), /wants to call mcp__team__post/);
    assert.match(io.err(), /"channel": "#dev"/);
    assert.match(io.err(), /Please answer y or n/);
  });

  it('a "yes" approves; once the run is no longer followed, calls are refused', async () => {
    const io = testIo(['y'], workspace);
    assert.equal(await runCli(['run', 'Post it'], io, deps()), 0, io.err());
    assert.deepEqual(verdicts, [{ approved: true }]);
    const after = await options?.askToolApproval?.(REQUEST);
    assert.equal(after?.approved, false);
  });

  it('stdin ending at the question refuses the call instead of failing the run', async () => {
    const io = testIo([], workspace);
    await runCli(['run', 'Post it'], io, deps());
    assert.equal(verdicts.length, 1);
    assert.equal(verdicts[0].approved, false);
    assert.match(verdicts[0].reason ?? '', /no answer/);
  });

  it('the relay refuses while nothing is attached, and detaching restores that', async () => {
    const relay = new ToolApprovalRelay();
    assert.equal((await relay.ask(REQUEST)).approved, false);
    const detach = relay.attach(async () => ({ approved: true }));
    assert.equal((await relay.ask(REQUEST)).approved, true);
    detach();
    assert.equal((await relay.ask(REQUEST)).approved, false);
  });
});
