import { strict as assert } from 'node:assert';
import { steeringTrail } from '../../../webview-ui/src/state/steering';
import { makeRun } from './fixtures';

describe('webview steering trail', () => {
  it('is null with one plan and nothing proposed or said', () => {
    assert.equal(
      steeringTrail(
        makeRun({
          metadata: { planVersions: [{ version: 1, summary: 'S', stepCount: 2, feedback: null, unchanged: false, by: 'planner' }] },
        }),
      ),
      null,
    );
  });

  it('shows each plan version with its feedback, unchanged marked, each attempt with its summary, and the guidance', () => {
    const trail = steeringTrail(
      makeRun({
        metadata: {
          planVersions: [
            { version: 1, summary: 'Fix Add', stepCount: 1, feedback: null, unchanged: false, by: 'planner' },
            {
              version: 2,
              summary: 'Fix Add',
              stepCount: 1,
              feedback: 'Also add a test',
              unchanged: true,
              by: 'planner',
              changes: { added: ['CREATE tests/T.cs: Test Add', 7], removed: ['MODIFY src/A.cs: Old'] },
            },
          ],
          attempts: [
            {
              iteration: 1,
              outcome: 'rejected',
              files: ['src/A.cs'],
              feedback: 'Not like that',
              diff: '',
              summary: 'Swapped the operator',
            },
            // Persisted before attempts had a summary: the iteration record's stands in.
            { iteration: 2, outcome: 'applied', files: ['src/A.cs'], diff: '' },
          ],
          iterations: [
            { iteration: 2, summary: 'Fixed Mul too', files: [], buildOk: true, newErrors: 0, newFailures: 1, outcome: 'tests failed' },
          ],
          guidanceGiven: [
            { iteration: 3, guidance: 'Look at Mul' },
            { iteration: 'x', guidance: 'bad record' },
          ],
        },
      }),
    );
    assert.deepEqual(
      trail?.plans.map((p) => [p.version, p.feedback, p.unchanged]),
      [
        [1, null, false],
        [2, 'Also add a test', true],
      ],
    );
    assert.deepEqual(
      trail?.plans.map((p) => [p.added, p.removed]),
      [
        [[], []],
        [['CREATE tests/T.cs: Test Add'], ['MODIFY src/A.cs: Old']],
      ],
    );
    assert.deepEqual(trail?.attempts, [
      { iteration: 1, outcome: 'rejected', files: ['src/A.cs'], summary: 'Swapped the operator', feedback: 'Not like that' },
      { iteration: 2, outcome: 'applied', files: ['src/A.cs'], summary: 'Fixed Mul too', feedback: null },
    ]);
    assert.deepEqual(trail?.guidance, [{ iteration: 3, guidance: 'Look at Mul' }]);
  });
});
