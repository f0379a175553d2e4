// Power loss in the middle of a rewind (rewind.ts): the write-ahead record names every file with
// the bytes it held and the bytes it gets, and the next command on the run (checkpoints, rewind,
// resume) rolls it forward, so the files are never left half-rewound and the state matches them; a
// file someone changed after the crash is kept; a crash before the record leaves everything as it was.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createNodeHost } from '../../../src/host/node';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { RunStore } from '../../../src/core/workflow/store';
import { finishUnfinishedRewind, rewindRun } from '../../../src/core/workflow/rewind';
import { hostLosingPower, PowerLoss } from '../../support/fault-matrix/faulty-host';
import { CALC_AFTER, CALC_BEFORE, baseline, codeOutput, failing, passing, planOutput, workflow } from '../../unit/workflow/samples';
import { FakeSteps } from '../../unit/workflow/fake-steps';
import { StateStream, orchestratorOver } from '../../unit/workflow/orchestrator-harness';
import { seededWorkspace } from './matrix';
import type { FaultRow, RowOutcome } from './matrix';

const CALC_V2 = `${CALC_AFTER}// second attempt\n`;
const NOTES = '# Notes\n';
/** Iteration 1's files, as the rewind to it must leave them (Notes.md came later: deleted). */
const AT_ITERATION_1 = { 'src/Calc.cs': CALC_AFTER };
/** What the run left at its end (iteration 2). */
const AT_END = { 'src/Calc.cs': CALC_V2, 'src/Notes.md': NOTES };

/** A two-iteration run on the seeded workspace: iteration 1 fixes Calc (tests fail), iteration 2 adds a line and Notes.md. */
async function finishedRun(): Promise<{ dir: string; before: ReturnType<typeof seededWorkspace>['before']; runId: string }> {
  const { ws, before } = seededWorkspace();
  const steps = new FakeSteps()
    .script('captureBaseline', { output: baseline() })
    .script('plan', { output: planOutput() })
    .script('code', { output: codeOutput([makeFileEdit('src/Calc.cs', CALC_BEFORE, CALC_AFTER)]) })
    .script('validate', { output: failing(1) })
    .script('code', { output: codeOutput([makeFileEdit('src/Calc.cs', CALC_AFTER, CALC_V2), makeFileEdit('src/Notes.md', null, NOTES)]) })
    .script('validate', { output: passing() });
  const orchestrator = orchestratorOver(ws.host, steps);
  steps.onStart('validate', (input) => orchestrator.store.journal.applyEdits(input.stateId, input.edits));
  const stream = new StateStream(
    orchestrator.execute(
      'Fix Calc',
      workflow({ workspaceRoot: ws.dir, approval: { plan: 'never', diffs: 'never' } }),
      AbortSignal.timeout(15_000),
    ),
  );
  assert.equal((await stream.rest()).at(-1), 'SUCCESS');
  return { dir: ws.dir, before, runId: stream.runId };
}

/**
 * Rewinds to iteration 1 through a host that loses power at the write `cut` picks, then (the
 * machine rebooted, `between` done while it was off) runs what the next command runs first.
 */
async function powerLossRow(
  cut: (dir: string, absPath: string) => boolean,
  changes: Record<string, string | null>,
  between?: (dir: string) => void,
): Promise<RowOutcome & { node: string; runId: string }> {
  const { dir, before, runId } = await finishedRun();
  const dying = new RunStore(hostLosingPower(createNodeHost(dir), (absPath) => cut(dir, absPath)));
  await assert.rejects(rewindRun(dying, runId, 'iteration:1'), PowerLoss);
  between?.(dir);
  const rebooted = new RunStore(createNodeHost(dir));
  const report = await finishUnfinishedRewind(rebooted, runId);
  assert.equal(await finishUnfinishedRewind(rebooted, runId), null, 'a second command finds nothing left open');
  assert.equal(fs.existsSync(path.join(dir, '.ironbees', 'runs', runId, 'checkpoints', 'rewind-intent.json')), false);
  const node = (await rebooted.load(runId)).codingState.currentNode;
  return { end: report ? 'rewound' : 'untouched', node, runId, workspace: { dir, before, changes } };
}

const workspaceWrite = (nth: number) => {
  let seen = 0;
  return (dir: string, absPath: string): boolean => !absPath.startsWith(path.join(dir, '.ironbees')) && seen++ === nth;
};

export const rewindRows: FaultRow[] = [
  {
    id: 'RW1',
    fault: 'power loss writing the rewind record, before any file',
    injectedAt: 'rewindRun: rewind-intent.json',
    expectedEnd: 'untouched',
    run: async () => {
      const outcome = await powerLossRow((_, absPath) => absPath.endsWith('rewind-intent.json'), AT_END);
      assert.equal(outcome.node, 'SUCCESS', 'the run is as it was');
      return outcome;
    },
  },
  {
    id: 'RW2',
    fault: 'power loss at the first workspace file of a rewind',
    injectedAt: 'rewindRun: 1st workspace write',
    expectedEnd: 'rewound',
    run: async () => {
      const outcome = await powerLossRow(workspaceWrite(0), AT_ITERATION_1);
      assert.equal(outcome.node, 'WAIT_HUMAN');
      return outcome;
    },
  },
  {
    id: 'RW3',
    fault: 'power loss after the 1st of 2 workspace files (Notes.md not yet deleted)',
    injectedAt: 'rewindRun: 2nd workspace write',
    expectedEnd: 'rewound',
    run: async () => {
      const outcome = await powerLossRow(workspaceWrite(1), AT_ITERATION_1);
      assert.equal(outcome.node, 'WAIT_HUMAN');
      return outcome;
    },
  },
  {
    id: 'RW4',
    fault: 'power loss after the files, before state.json',
    injectedAt: 'rewindRun: state.json',
    expectedEnd: 'rewound',
    run: async () => {
      const outcome = await powerLossRow((_, absPath) => absPath.endsWith('state.json'), AT_ITERATION_1);
      assert.equal(outcome.node, 'WAIT_HUMAN', 'the state matches the files');
      return outcome;
    },
  },
  {
    id: 'RW5',
    fault: 'power loss at the first file; a person edits Calc.cs before the next command',
    injectedAt: 'rewindRun: 1st workspace write',
    expectedEnd: 'rewound',
    run: async () => {
      const persons = `${CALC_V2}// the person's line\n`;
      const outcome = await powerLossRow(workspaceWrite(0), { 'src/Calc.cs': persons }, (dir) =>
        fs.writeFileSync(path.join(dir, 'src', 'Calc.cs'), persons),
      );
      assert.equal(outcome.node, 'WAIT_HUMAN');
      return outcome;
    },
  },
];
