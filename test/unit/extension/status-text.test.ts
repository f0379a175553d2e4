import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type { CodingState, WorkflowNode } from '../../../src/core/model';
import { EMPTY_USAGE } from '../../../src/core/model';
import { isWorking, statusIcon, statusText } from '../../../src/extension/status-text';

function state(currentNode: WorkflowNode, iterationCount: number): CodingState {
  return {
    stateId: 'r',
    userRequest: 'Fix it',
    spec: null,
    plan: null,
    codeDiffs: [],
    buildResult: null,
    testResult: null,
    baseline: null,
    errorContext: null,
    iterationCount,
    maxIterations: 5,
    currentNode,
    timestamp: '2026-01-01T00:00:00Z',
    usage: EMPTY_USAGE,
    metadata: {},
  };
}

describe('status text', () => {
  it('shows the iteration and the step while working', () => {
    assert.equal(statusText(state('VALIDATE', 2)), 'Ironbees 2/5 · Validating');
    assert.equal(statusIcon(state('VALIDATE', 2)), '$(sync~spin)');
    assert.equal(isWorking(state('CODE', 1)), true);
  });

  it('a reverted run reads Reverted, not how it ended', () => {
    const reverted = { ...state('SUCCESS', 2), metadata: { revertedAt: '2026-01-01T00:05:00Z' } };
    assert.equal(statusText(reverted), 'Ironbees 2/5 · Reverted');
    assert.equal(statusIcon(reverted), '$(discard)');
  });

  it('leaves the iteration out before the coder starts', () => {
    assert.equal(statusText(state('PLAN', 0)), 'Ironbees · Planning');
  });

  it('shows the outcome, not a spinner, when done or waiting for the person', () => {
    assert.equal(statusText(state('SUCCESS', 1)), 'Ironbees 1/5 · Succeeded');
    assert.equal(statusIcon(state('SUCCESS', 1)), '$(check)');
    assert.equal(statusIcon(state('FAILED', 1)), '$(error)');
    assert.equal(isWorking(state('WAIT_PLAN_APPROVAL', 0)), false);
    assert.equal(statusIcon(state('WAIT_DIFF_APPROVAL', 1)), '$(bell)');
    assert.equal(statusText(null), 'Ironbees');
  });
});

describe('status text in a plan of phases', () => {
  it('names the running phase and its place', () => {
    const phase = (phaseId: string, status: 'pending' | 'running' | 'complete') => ({
      phaseId,
      name: `Phase ${phaseId}`,
      status,
      iterationsRun: 1,
      maxIterations: 3,
      startedAt: null,
      endedAt: null,
    });
    const plan = { summary: 's', steps: [], affectedFiles: [], complexity: 'LOW' as const, phases: [] as never[] };
    const phased = {
      ...state('CODE', 3),
      plan: { ...plan, phases: [{ id: 'a', name: 'a', description: '', dependencies: [], steps: [], affectedFiles: [] }] },
      phases: [phase('a', 'complete'), phase('b', 'running'), phase('c', 'pending')],
    };
    assert.equal(statusText(phased), 'Ironbees 3/5 · phase 2/3 Phase b · Coding');
    // A plan in one phase, or a finished run: no phase named.
    assert.equal(statusText({ ...phased, plan }), 'Ironbees 3/5 · Coding');
    assert.equal(statusText({ ...phased, currentNode: 'SUCCESS' }), 'Ironbees 3/5 · Succeeded');
  });
});
