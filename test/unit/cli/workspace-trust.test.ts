// The CLI's trust gate: a workspace's own agents and MCP servers reach the runtime only with
// --trust-workspace (or a terminal's "yes"); --yes and a piped stdin never trust it.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/app';
import type { CliDeps, RuntimeOptions } from '../../../src/cli/app';
import { makeState } from './fixtures';
import { FakeOrchestrator, fsHost, testIo } from './fakes';

describe('CLI trust gate', () => {
  let workspace: string;
  let calls: RuntimeOptions[];

  beforeEach(async () => {
    workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-cli-trust-'));
    await fs.writeFile(path.join(workspace, 'App.sln'), '');
    calls = [];
  });
  afterEach(async () => {
    await fs.rm(workspace, { recursive: true, force: true });
  });

  function deps(): Partial<CliDeps> {
    const orchestrator = new FakeOrchestrator(async function* () {
      yield makeState({ currentNode: 'SUCCESS' });
    });
    return {
      createRuntime: async (options) => {
        calls.push(options);
        return { host: fsHost(options.workspaceRoot), orchestrator };
      },
      createHost: (root) => fsHost(root),
    };
  }

  async function defineAgentAndMcp(): Promise<void> {
    await fs.mkdir(path.join(workspace, '.ironbees', 'agents', 'planner'), { recursive: true });
    await fs.writeFile(path.join(workspace, '.ironbees', 'mcp.json'), '{"mcpServers":{}}');
  }

  it('--yes with a piped "y" on stdin: untrusted, each item named on one line', async () => {
    await defineAgentAndMcp();
    const io = testIo(['y', 'y', 'y'], workspace);
    assert.equal(await runCli(['run', 'Fix it', '--yes', '--target', 'App.sln'], io, deps()), 0);
    assert.deepEqual(calls.map((c) => c.trusted), [false]);
    const ignored = io.err().split('\n').filter((line) => line.startsWith('Ignored '));
    assert.deepEqual(ignored, [
      'Ignored .ironbees/agents/planner/ (a workspace agent (its prompt and model)): this workspace is not trusted; pass --trust-workspace to use it.',
      'Ignored .ironbees/mcp.json (MCP servers (processes started, URLs contacted)): this workspace is not trusted; pass --trust-workspace to use it.',
    ]);
  });

  it('--trust-workspace trusts it, and nothing is said', async () => {
    await defineAgentAndMcp();
    const io = testIo(null, workspace);
    assert.equal(await runCli(['run', 'Fix it', '--yes', '--trust-workspace', '--target', 'App.sln'], io, deps()), 0);
    assert.deepEqual(calls.map((c) => c.trusted), [true]);
    assert.doesNotMatch(io.err(), /Ignored /);
  });

  it('a workspace that defines nothing: no question, no line', async () => {
    const io = testIo(null, workspace);
    assert.equal(await runCli(['run', 'Fix it', '--yes', '--target', 'App.sln'], io, deps()), 0);
    assert.deepEqual(calls.map((c) => c.trusted), [false]);
    assert.doesNotMatch(io.err(), /Ignored |trust/i);
  });

  it('a symbolic-link .ironbees is refused with exit 2 before a runtime is made', async () => {
    const elsewhere = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-cli-elsewhere-'));
    try {
      await fs.symlink(elsewhere, path.join(workspace, '.ironbees'));
      const io = testIo(null, workspace);
      assert.equal(await runCli(['run', 'Fix it', '--yes', '--target', 'App.sln'], io, deps()), 2);
      assert.match(io.err(), /\.ironbees is a symbolic link/);
      assert.deepEqual(calls, []);
      assert.deepEqual(await fs.readdir(elsewhere), []);
    } finally {
      await fs.rm(elsewhere, { recursive: true, force: true });
    }
  });
});
