// The panel's phase lanes: one per phase of a plan in phases, in the order they ran, each with its
// status and iterations; none for a plan in one phase.

import { strict as assert } from 'node:assert';
import { latestActivity, phaseLanes } from '../../../webview-ui/src/state/phases';
import type { PhaseState, PlanPhase } from '../../../src/core/model';
import { SAMPLE_PLAN, makeRun } from './fixtures';

const planned = (id: string, dependencies: string[]): PlanPhase => ({
  id,
  name: id,
  description: '',
  dependencies,
  steps: [],
  affectedFiles: [],
});
const state = (phaseId: string, status: PhaseState['status'], startedAt: string | null, extra: Partial<PhaseState> = {}): PhaseState => ({
  phaseId,
  name: `Phase ${phaseId}`,
  status,
  iterationsRun: status === 'pending' ? 0 : 2,
  maxIterations: 3,
  startedAt,
  endedAt: null,
  ...extra,
});

describe('webview phase lanes', () => {
  it('lists the phases in the order they ran, then the pending ones, with status and iterations', () => {
    const run = makeRun({
      plan: { ...SAMPLE_PLAN, phases: [planned('cover', ['fix', 'mod']), planned('fix', []), planned('mod', [])] },
      phases: [
        state('cover', 'pending', null),
        state('fix', 'complete', 't1', { handoff: 'Fixed Divide\nFiles changed: a.cs' }),
        state('mod', 'running', 't2'),
      ],
    });
    assert.deepEqual(
      phaseLanes(run).map((lane) => [lane.id, lane.status, lane.detail, lane.note]),
      [
        ['fix', 'complete', '2 iterations', 'Fixed Divide\nFiles changed: a.cs'],
        ['mod', 'running', 'iteration 2 of 3', null],
        ['cover', 'pending', 'waits for mod', null],
      ],
    );
  });

  it('says why a phase stopped, and shows no lanes for a plan in one phase', () => {
    const failed = makeRun({
      plan: { ...SAMPLE_PLAN, phases: [planned('fix', [])] },
      phases: [state('fix', 'error', 't1', { error: 'model gone' })],
    });
    assert.deepEqual(
      phaseLanes(failed).map((lane) => [lane.status, lane.note]),
      [['error', 'model gone']],
    );
    assert.deepEqual(phaseLanes(makeRun({ plan: SAMPLE_PLAN, phases: [state('main', 'running', 't1')] })), []);
  });

  it('the running lane shows the last line of the latest activity', () => {
    assert.equal(latestActivity([{ text: 'read_file a.cs' }, { text: 'Thinking…\nnow editing b.cs ' }]), 'now editing b.cs');
    assert.equal(latestActivity([]), null);
    assert.equal(latestActivity(undefined), null);
  });
});
