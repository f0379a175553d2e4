// A resumed run keeps the model settings it was started with: a run begun with --demo, stopped at
// its plan gate, resumes with the demo model although `resume` is not given --demo again. The key
// and base URL of a fake Messages API are set all along, so one request to it would show the
// resume had switched to Anthropic.

import assert from 'node:assert/strict';
import { startFakeAnthropic } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, readRunFile, removeDir, runCli } from '../support/cli-harness';

describe("ironbees resume keeps the run's model settings (real CLI, real dotnet)", function () {
  this.timeout(420_000);
  let fake: FakeAnthropic;
  let workspace: string;

  before(() => ensureCliBuilt());
  beforeEach(async () => {
    fake = await startFakeAnthropic();
    workspace = copyFixture('calculator');
  });
  afterEach(async () => {
    await fake.close();
    removeDir(workspace);
  });

  it('a --demo run stopped at the plan gate resumes with the demo model without --demo', async () => {
    const env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url };
    // No answers on stdin: EOF at the plan prompt leaves the run waiting there (exit 130).
    const first = await runCli(['run', 'Fix the failing Calculator test', '--workspace', workspace, '--demo', '--json'], env, '');
    assert.equal(first.code, 130, first.stderr);
    const stopped = first.states.at(-1);
    assert.ok(stopped);
    assert.equal(stopped.currentNode, 'WAIT_PLAN_APPROVAL');
    const saved = JSON.parse(readRunFile(workspace, stopped.stateId, 'state.json')) as {
      codingState: { metadata: Record<string, unknown> };
    };
    assert.equal(saved.codingState.metadata.modelProvider, 'demo');

    const resumed = await runCli(['resume', stopped.stateId, '--workspace', workspace, '--yes', '--json'], env);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.states.at(-1)?.currentNode, 'SUCCESS');
    assert.match(resumed.stderr, /DEMO MODE: a scripted demo model answers instead of Anthropic/);
    assert.equal(fake.requests.length, 0, 'the resume never asked the Anthropic API');
    assert.equal((resumed.states.at(-1)?.metadata as Record<string, unknown>).modelProvider, 'demo');
  });
});
