// How a test project's time is split between a first run without a hang watcher and a re-run that names
// a hung test: by the project's last run when it is known, so a healthy suite is never stopped near its
// usual time; half and half when it is not.

import assert from 'node:assert/strict';
import { hangBudget, rerunHangMs } from '../../../src/core/dotnet/hang-budget';

describe('hangBudget', () => {
  it('unknown last run: half of the time left less the 20 s margin, then a re-run', () => {
    assert.deepEqual(hangBudget(600_000, true), { firstRunMs: 290_000, rerun: true });
  });

  it('a known last run: the first run gets all but a re-run (that run, a hang timeout of twice it, the margin)', () => {
    assert.deepEqual(hangBudget(600_000, true, 8_000), { firstRunMs: 556_000, rerun: true });
  });

  it('a last run shorter than the shortest hang timeout reserves that timeout twice', () => {
    assert.deepEqual(hangBudget(600_000, true, 1_000), { firstRunMs: 569_000, rerun: true });
  });

  it("a re-run's watcher lets one test run what is left less the time the tests take to reach it", () => {
    assert.equal(rerunHangMs(44_000, 8_000), 36_000);
    assert.equal(rerunHangMs(44_000, undefined), 44_000);
  });

  it('never less than half: a last run of a sixth of the limit keeps the half split', () => {
    assert.deepEqual(hangBudget(600_000, true, 100_000), { firstRunMs: 290_000, rerun: true });
  });

  it('a suite that took half of the time or more last time gets all of it, with no re-run', () => {
    assert.deepEqual(hangBudget(600_000, true, 290_000), { firstRunMs: 600_000, rerun: false });
    assert.deepEqual(hangBudget(600_000, true, 289_999), { firstRunMs: 290_000, rerun: true });
  });

  it('no watcher to name the test, or too little time for a re-run: all of it, no re-run', () => {
    assert.deepEqual(hangBudget(600_000, false, 8_000), { firstRunMs: 600_000, rerun: false });
    assert.deepEqual(hangBudget(29_000, true, 1_000), { firstRunMs: 29_000, rerun: false });
  });
});
