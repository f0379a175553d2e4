// Which phases start when several may run at once: the ready ones in plan order, never more than the
// limit running in all, none that waits for a phase not complete.

import { strict as assert } from 'node:assert';
import type { PhaseStatus } from '../../../src/core/model';
import { phaseSlug, phasesToStart } from '../../../src/core/workflow/parallel-schedule';

const PHASES = [
  { id: 'a', dependencies: [] },
  { id: 'b', dependencies: [] },
  { id: 'c', dependencies: ['a', 'b'] },
  { id: 'd', dependencies: [] },
];

function statuses(entries: Record<string, PhaseStatus>): Map<string, PhaseStatus> {
  return new Map(Object.entries(entries));
}

describe('phasesToStart (--parallel N)', () => {
  it('starts the independent phases, at most N, in plan order', () => {
    assert.deepEqual(phasesToStart(PHASES, statuses({}), 2), ['a', 'b']);
    assert.deepEqual(phasesToStart(PHASES, statuses({}), 3), ['a', 'b', 'd']);
    assert.deepEqual(phasesToStart(PHASES, statuses({}), 1), ['a']);
  });

  it('counts the running phases against the limit', () => {
    assert.deepEqual(phasesToStart(PHASES, statuses({ a: 'running' }), 2), ['b']);
    assert.deepEqual(phasesToStart(PHASES, statuses({ a: 'running', b: 'running' }), 2), []);
    assert.deepEqual(phasesToStart(PHASES, statuses({ a: 'running', b: 'running', d: 'running' }), 2), []);
  });

  it('starts a dependent phase only once every dependency is complete', () => {
    assert.deepEqual(phasesToStart(PHASES, statuses({ a: 'complete', b: 'running', d: 'complete' }), 3), []);
    assert.deepEqual(phasesToStart(PHASES, statuses({ a: 'complete', b: 'complete', d: 'running' }), 2), ['c']);
    assert.deepEqual(phasesToStart(PHASES, statuses({ a: 'complete', b: 'error', d: 'complete' }), 4), []);
  });

  it('never starts a phase twice', () => {
    assert.deepEqual(phasesToStart(PHASES, statuses({ a: 'complete', b: 'complete', c: 'complete', d: 'complete' }), 4), []);
  });
});

describe('phaseSlug', () => {
  it('keeps a safe id and makes any other one safe for a branch and a folder', () => {
    assert.equal(phaseSlug('add-mod_2.x'), 'add-mod_2.x');
    assert.equal(phaseSlug('fix divide/now'), 'fix-divide-now');
    assert.equal(phaseSlug('..'), 'phase');
    assert.equal(phaseSlug('-x'), 'x');
  });
});
