// The load bench's bounded version (issue 15, item 8; the long one is `npm run bench:load`): whole
// scripted runs through the real orchestrator on in-memory workspaces (no dotnet), 50 at once and
// then 200 one after another. Every run must reach SUCCESS, and the sequential runs must leave no
// timer, socket or handle behind: the count of active resources at the end is what it was after
// the first runs.

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { concurrentRuns, prepareLoad, runProblem, sampleResources, scriptedRun, workspaceFolder } from '../support/load-runs';
import type { LoadFixture } from '../support/load-runs';

describe('load: scripted runs through the orchestrator (bounded)', function () {
  this.timeout(120_000);
  let fixture: LoadFixture;
  before(async () => {
    fixture = await prepareLoad();
  });
  after(() => fixture.dispose());

  it('one run reaches SUCCESS with the fix on its in-memory disk and its run lock released', async () => {
    const folder = workspaceFolder(fixture, 'single');
    const state = await scriptedRun(fixture, folder);
    assert.equal(runProblem(state), null);
    assert.equal(state.iterationCount, 1);
    assert.deepEqual(state.metadata.approvedFiles, ['src/Calculator/Calculator.cs']);
    assert.throws(() => readFileSync(`${folder}/.ironbees/run.lock`), /ENOENT/, 'the lock is gone');
  });

  it('50 runs at once: every one reaches SUCCESS, and Node has nothing to warn about', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const { problems } = await concurrentRuns(fixture, 50);
      assert.deepEqual(problems, []);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    // Each live run lock once added its own exit listener: 50 runs made Node warn of a leak.
    assert.deepEqual(warnings, []);
  });

  it('200 runs one after another: no errors, and no active resource left behind', async () => {
    const folder = workspaceFolder(fixture, 'sequential');
    const problems: string[] = [];
    // The first runs warm up what is made once (module state, the SDK's lazy parts).
    for (let i = 0; i < 10; i += 1)
      problems.push(...[runProblem(await scriptedRun(fixture, folder))].filter((p): p is string => p !== null));
    const start = sampleResources();
    const exitListeners = process.listenerCount('exit');
    for (let i = 0; i < 200; i += 1) {
      const problem = runProblem(await scriptedRun(fixture, folder));
      if (problem) problems.push(problem);
    }
    const end = sampleResources();
    assert.deepEqual(problems, []);
    assert.equal(process.listenerCount('exit'), exitListeners, 'no exit listener left behind');
    assert.ok(
      end.activeResources <= start.activeResources,
      `active resources grew from ${start.activeResources} to ${end.activeResources}: ${process.getActiveResourcesInfo().join(', ')}`,
    );
  });
});
