// The timeline tells the truth: only steps reached are ticked, the step a run failed or was cancelled
// in is marked, a reverted run does not read "Success", and a failed baseline build is not green.

import { strict as assert } from 'node:assert';
import { conflictNote, endingNote, runTimeline, stoppedIn } from '../../../webview-ui/src/state/timeline';
import type { BuildResult, CodingState } from '../../../src/core/model';
import { SAMPLE_PLAN, makeRun } from './fixtures';

const statuses = (run: CodingState): Record<string, string> => Object.fromEntries(runTimeline(run).map((e) => [e.node, e.status]));
const OK_BUILD: BuildResult = { success: true, errors: [], warnings: [], durationMs: 1 };
const BASELINE = { build: OK_BUILD, test: null, capturedAt: 'x' };

describe('webview timeline, as the run really went', () => {
  it('a run cancelled while coding ticks the steps before Code only', () => {
    const run = makeRun({ currentNode: 'CANCELLED', baseline: BASELINE, plan: SAMPLE_PLAN, metadata: { endedDuring: 'CODE' } });
    assert.deepEqual(statuses(run), {
      INIT: 'done',
      PLAN: 'done',
      WAIT_PLAN_APPROVAL: 'done',
      CODE: 'stopped',
      WAIT_DIFF_APPROVAL: 'todo',
      VALIDATE: 'todo',
      DECIDE: 'todo',
      REVIEW: 'todo',
      CANCELLED: 'stopped',
    });
    assert.equal(endingNote(run), 'Cancelled during Code.');
  });

  it('a run that failed says where and why, from the state', () => {
    const error = 'src/A.cs was changed while its diff was under review; it was not overwritten';
    const run = makeRun({ currentNode: 'FAILED', baseline: BASELINE, plan: SAMPLE_PLAN, metadata: { endedDuring: 'VALIDATE', error } });
    const s = statuses(run);
    assert.equal(s.WAIT_DIFF_APPROVAL, 'done');
    assert.equal(s.VALIDATE, 'failed');
    assert.equal(s.DECIDE, 'todo');
    assert.equal(s.FAILED, 'failed');
    assert.equal(endingNote(run), `Failed during Validate: ${error}`);
  });

  it('without a recorded step, stops at the first step the run left no trace of', () => {
    const run = makeRun({ currentNode: 'FAILED', baseline: BASELINE, metadata: { error: 'model unreachable' } });
    assert.equal(stoppedIn(run), 'PLAN');
    assert.equal(statuses(run).PLAN, 'failed');
    assert.equal(statuses(run).WAIT_PLAN_APPROVAL, 'todo');
  });

  it('stopped at the hand-off: the main path was gone through, the hand-off up to Your call', () => {
    const run = makeRun({
      currentNode: 'CANCELLED',
      baseline: BASELINE,
      plan: SAMPLE_PLAN,
      buildResult: OK_BUILD,
      metadata: { endedDuring: 'WAIT_HUMAN' },
    });
    const entries = runTimeline(run);
    assert.deepEqual(
      entries.slice(-3).map((e) => [e.node, e.status]),
      [
        ['ESCALATE', 'done'],
        ['WAIT_HUMAN', 'stopped'],
        ['CANCELLED', 'stopped'],
      ],
    );
    assert.equal(entries.filter((e) => e.status === 'todo').length, 0);
  });

  it('a reverted run ends in Reverted, not Success', () => {
    const run = makeRun({ currentNode: 'SUCCESS', baseline: BASELINE, metadata: { revertedAt: '2026-11-25T00:00:00Z' } });
    const last = runTimeline(run).at(-1);
    assert.deepEqual([last?.node, last?.label, last?.status], ['SUCCESS', 'Reverted', 'reverted']);
    assert.ok(!runTimeline(run).some((e) => e.label === 'Success'));
  });

  it('the Baseline step shows failure when the baseline build failed', () => {
    const broken: BuildResult = {
      ...OK_BUILD,
      success: false,
      errors: [{ code: 'CS1', message: 'x', filePath: null, line: 0, column: 0 }],
    };
    const run = makeRun({ currentNode: 'PLAN', baseline: { build: broken, test: null, capturedAt: 'x' } });
    const init = runTimeline(run).find((e) => e.node === 'INIT');
    assert.equal(init?.status, 'failed');
    assert.equal(init?.note, 'The build failed before any edit (1 error)');
    assert.equal(statuses(makeRun({ currentNode: 'PLAN', baseline: BASELINE })).INIT, 'done');
  });

  it('a successful run and a run in progress read as before', () => {
    assert.ok(runTimeline(makeRun({ currentNode: 'SUCCESS', baseline: BASELINE })).every((e) => e.status === 'done'));
    assert.equal(statuses(makeRun({ currentNode: 'CODE', baseline: BASELINE })).CODE, 'current');
    assert.equal(endingNote(makeRun({ currentNode: 'SUCCESS' })), null);
  });

  it('says when the agent proposes again over a file the person changed under review', () => {
    const run = makeRun({ currentNode: 'CODE', metadata: { editConflict: ['src/Calc.cs'] } });
    assert.equal(
      conflictNote(run),
      'src/Calc.cs changed while under review: nothing was written over your version; the agent proposes again on top of it.',
    );
    assert.equal(conflictNote(makeRun({ currentNode: 'CODE' })), null);
  });

  it('does not tick an approval gate the run went past without asking (approval "never")', () => {
    const skippedPlanGate = makeRun({
      currentNode: 'CANCELLED',
      baseline: BASELINE,
      plan: SAMPLE_PLAN,
      metadata: { endedDuring: 'WAIT_DIFF_APPROVAL', gatesReached: ['WAIT_DIFF_APPROVAL'] },
    });
    assert.deepEqual(statuses(skippedPlanGate), {
      INIT: 'done',
      PLAN: 'done',
      WAIT_PLAN_APPROVAL: 'skipped',
      CODE: 'done',
      WAIT_DIFF_APPROVAL: 'stopped',
      VALIDATE: 'todo',
      DECIDE: 'todo',
      REVIEW: 'todo',
      CANCELLED: 'stopped',
    });
    assert.equal(runTimeline(skippedPlanGate)[2]?.note, 'Skipped: the approval settings let the run go on without asking you');
    const neverAsked = statuses(makeRun({ currentNode: 'SUCCESS', baseline: BASELINE, metadata: { gatesReached: [] } }));
    assert.deepEqual([neverAsked.WAIT_PLAN_APPROVAL, neverAsked.WAIT_DIFF_APPROVAL, neverAsked.VALIDATE], ['skipped', 'skipped', 'done']);
    // A run that was not reviewed (reviews off) does not tick the review.
    assert.equal(neverAsked.REVIEW, 'skipped');
    // A run persisted before the state kept its gates reads as it did.
    assert.equal(statuses(makeRun({ currentNode: 'SUCCESS', baseline: BASELINE })).WAIT_PLAN_APPROVAL, 'done');
  });
});
