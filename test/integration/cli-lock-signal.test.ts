// The CLI ended by SIGTERM (a CI job cancelled, `kill`) or SIGHUP (the terminal closed) mid-run leaves
// no .ironbees/run.lock behind: the next run starts without being told the workspace is busy.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { startFakeAnthropic } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, removeDir, startCli } from '../support/cli-harness';

describe('ironbees CLI ended by a signal', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  let workspace: string;

  before(function () {
    if (process.platform === 'win32') this.skip();
    ensureCliBuilt();
  });
  beforeEach(async () => {
    fake = await startFakeAnthropic();
    workspace = copyFixture('calculator');
  });
  afterEach(async () => {
    await fake.close();
    removeDir(workspace);
  });

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal} while the planner waits for the model: exit ${code}, run.lock removed`, async () => {
      let asked: () => void = () => undefined;
      const planning = new Promise<void>((resolve) => (asked = resolve));
      // The model never answers: the run is mid-step, holding the lock, when the signal comes.
      fake.enqueue(() => {
        asked();
        return new Promise(() => undefined);
      });
      const run = startCli(['run', 'Fix Divide', '--workspace', workspace, '--yes', '--json'], {
        ANTHROPIC_API_KEY: 'sk-test',
        ANTHROPIC_BASE_URL: fake.url,
      });
      await planning;
      const lock = path.join(workspace, '.ironbees', 'run.lock');
      assert.ok(existsSync(lock), 'the run holds the lock');
      run.child.kill(signal);
      const result = await run.done;
      assert.equal(result.code, code, result.stderr);
      assert.equal(existsSync(lock), false, 'the lock went with the process');
    });
  }
});
