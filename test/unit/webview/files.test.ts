import { strict as assert } from 'node:assert';
import { proposedFiles, tallyReview } from '../../../webview-ui/src/state/files';
import type { FileReview } from '../../../src/shared/protocol';
import { makeRun, SAMPLE_EDIT } from './fixtures';

const NEW_FILE = {
  filePath: 'src/New.cs',
  type: 'CREATE' as const,
  originalContent: null,
  newContent: 'x\ny\n',
  diffText: '--- /dev/null\n+++ b/src/New.cs\n@@ -0,0 +1,2 @@\n+x\n+y\n',
};

describe('webview proposedFiles', () => {
  it('is empty without a run', () => {
    assert.deepEqual(proposedFiles(null, null), []);
  });

  it('derives pending rows with counts from the run codeDiffs', () => {
    const rows = proposedFiles(makeRun({ codeDiffs: [SAMPLE_EDIT, NEW_FILE] }), null);
    assert.deepEqual(
      rows.map((r) => [r.filePath, r.type, r.status, r.added, r.removed, r.hunkCount]),
      [
        ['src/Calculator/Calculator.cs', 'MODIFY', 'pending', 1, 1, 1],
        ['src/New.cs', 'CREATE', 'pending', 2, 0, 1],
      ],
    );
  });

  it('uses the review for the same run, and ignores a review of another run', () => {
    const reviewed: FileReview = {
      filePath: SAMPLE_EDIT.filePath,
      type: 'MODIFY',
      status: 'partial',
      hunkCount: 2,
      rejectedHunks: [1],
      added: 3,
      removed: 2,
    };
    const run = makeRun({ codeDiffs: [SAMPLE_EDIT, NEW_FILE] });
    const rows = proposedFiles(run, { runId: 'run-1', files: [reviewed] });
    // The review's row, with the diff the served page shows inline.
    assert.deepEqual(rows[0], { ...reviewed, diffText: SAMPLE_EDIT.diffText });
    assert.equal(rows[1]?.status, 'pending');
    assert.equal(rows[1]?.diffText, NEW_FILE.diffText);
    assert.equal(proposedFiles(run, { runId: 'other', files: [reviewed] })[0]?.status, 'pending');
  });

  it('keeps review rows the state does not list yet', () => {
    const extra: FileReview = {
      filePath: 'b.cs',
      type: 'DELETE',
      status: 'rejected',
      hunkCount: 1,
      rejectedHunks: [0],
      added: 0,
      removed: 4,
    };
    const rows = proposedFiles(makeRun(), { runId: 'run-1', files: [extra] });
    assert.deepEqual(rows, [extra]);
  });

  it('tallies the statuses', () => {
    const rows = proposedFiles(makeRun({ codeDiffs: [SAMPLE_EDIT, NEW_FILE] }), {
      runId: 'run-1',
      files: [{ filePath: 'src/New.cs', type: 'CREATE', status: 'accepted', hunkCount: 1, rejectedHunks: [], added: 2, removed: 0 }],
    });
    assert.deepEqual(tallyReview(rows), { accepted: 1, rejected: 0, partial: 0, pending: 1 });
  });
});
