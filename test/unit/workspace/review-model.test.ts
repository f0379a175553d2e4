import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { applyFileDecisions, describeRejectedDiffs } from '../../../src/core/workflow/diff-decisions';
import { ReviewModel } from '../../../src/core/workspace/review-model';

const ORIGINAL = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
// Two changes far apart: two hunks.
const PROPOSED = ORIGINAL.replace('line 3\n', 'line three\n').replace('line 27\n', 'line twenty-seven\n');
// Three changes far apart: three hunks.
const THREE_ORIGINAL = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const THREE_PROPOSED = THREE_ORIGINAL.replace('line 5\n', 'line five\n')
  .replace('line 30\n', 'line thirty\n')
  .replace('line 55\n', 'line fifty-five\n');

function twoFiles(): ReviewModel {
  return new ReviewModel('run-1', [makeFileEdit('src/A.cs', ORIGINAL, PROPOSED), makeFileEdit('src/New.cs', null, 'class New {}\n')]);
}

describe('ReviewModel', () => {
  it('finds the hunks of each file where the core does, with their place in the proposed file', () => {
    const review = twoFiles();
    const hunks = review.hunks('src/A.cs');
    assert.equal(hunks.length, 2);
    assert.equal(hunks[0].index, 0);
    assert.ok(hunks[0].newStart <= 3 && hunks[0].newStart + hunks[0].newLines > 3);
    assert.ok(hunks[1].newStart <= 27 && hunks[1].newStart + hunks[1].newLines > 27);
    assert.equal(review.hunks('src/New.cs').length, 1);
  });

  it('is pending until every file has a verdict, and says which files are left', () => {
    const review = twoFiles();
    assert.equal(review.allDecided(), false);
    assert.deepEqual(review.pending(), ['src/A.cs', 'src/New.cs']);
    review.setHunk('src/A.cs', 0, true);
    assert.equal(review.status('src/A.cs'), 'pending');
    review.setHunk('src/A.cs', 1, false, 'keep 27');
    assert.equal(review.status('src/A.cs'), 'partial');
    review.setFile('src/New.cs', true);
    assert.equal(review.allDecided(), true);
  });

  it('turns a partly accepted file into an APPROVE with its rejected hunk, which the core applies as accepted', () => {
    const review = twoFiles();
    review.setHunk('src/A.cs', 0, true);
    review.setHunk('src/A.cs', 1, false, 'keep 27');
    review.setFile('src/New.cs', false, 'not needed');
    const decision = review.toDecision();
    assert.deepEqual(decision, {
      type: 'APPROVE',
      files: [
        { filePath: 'src/A.cs', accepted: true, rejectedHunks: [1], hunkReasons: { 1: 'keep 27' } },
        { filePath: 'src/New.cs', accepted: false, reason: 'not needed' },
      ],
    });
    assert.equal(decision.type, 'APPROVE');
    const applied = applyFileDecisions(
      [makeFileEdit('src/A.cs', ORIGINAL, PROPOSED), makeFileEdit('src/New.cs', null, 'class New {}\n')],
      decision.files,
    );
    assert.equal(applied.length, 1);
    assert.match(applied[0].newContent ?? '', /line three\n/);
    assert.match(applied[0].newContent ?? '', /line 27\n/);
  });

  it('rejects a file as a file when every one of its hunks is rejected', () => {
    const review = twoFiles();
    review.setHunk('src/A.cs', 0, false);
    review.setHunk('src/A.cs', 1, false);
    assert.equal(review.status('src/A.cs'), 'rejected');
    const decision = review.toDecision();
    assert.equal(decision.type, 'APPROVE');
    assert.deepEqual(decision.files?.[0], { filePath: 'src/A.cs', accepted: false });
  });

  it('counts undecided hunks as accepted when submitted early', () => {
    const review = twoFiles();
    review.setHunk('src/A.cs', 1, false);
    const decision = review.toDecision();
    assert.deepEqual(decision.type === 'APPROVE' ? decision.files : null, [
      { filePath: 'src/A.cs', accepted: true, rejectedHunks: [1] },
      { filePath: 'src/New.cs', accepted: true },
    ]);
  });

  it('keeps a reason per hunk, and tells the coder each hunk with its own', () => {
    const review = twoFiles();
    review.setHunk('src/A.cs', 0, false, 'keep line 3');
    review.setHunk('src/A.cs', 1, false, 'keep 27');
    review.setFile('src/New.cs', true);
    assert.equal(review.hunkReason('src/A.cs', 0), 'keep line 3');
    assert.equal(review.hunkReason('src/A.cs', 1), 'keep 27');
    const decision = review.toDecision();
    // Rejected hunk by hunk, the file is rejected as a file; its reason carries every hunk's, since
    // a change rejected file by file reaches the coder through the files' reasons alone.
    assert.deepEqual(decision.type === 'APPROVE' ? decision.files?.[0] : null, {
      filePath: 'src/A.cs',
      accepted: false,
      reason: 'hunk 1: keep line 3; hunk 2: keep 27',
    });
    const text =
      describeRejectedDiffs([makeFileEdit('src/A.cs', ORIGINAL, PROPOSED)], decision.type === 'APPROVE' ? decision.files : []) ?? '';
    assert.match(text, /src\/A\.cs: the whole file was rejected and not applied\. Reason: hunk 1: keep line 3; hunk 2: keep 27/);
  });

  it('gives each rejected hunk of a partly accepted file its own reason, and forgets the reason of a hunk accepted later', () => {
    const edits = [makeFileEdit('src/Three.cs', THREE_ORIGINAL, THREE_PROPOSED)];
    const review = new ReviewModel('run-3', edits);
    assert.equal(review.hunks('src/Three.cs').length, 3);
    review.setHunk('src/Three.cs', 0, false, 'first is wrong');
    review.setHunk('src/Three.cs', 1, false, 'second is wrong');
    review.setHunk('src/Three.cs', 1, true);
    review.setHunk('src/Three.cs', 2, false, 'third is wrong');
    assert.equal(review.hunkReason('src/Three.cs', 1), undefined);
    const decision = review.toDecision();
    const files = decision.type === 'APPROVE' ? decision.files : [];
    assert.deepEqual(files, [
      { filePath: 'src/Three.cs', accepted: true, rejectedHunks: [0, 2], hunkReasons: { 0: 'first is wrong', 2: 'third is wrong' } },
    ]);
    const text = describeRejectedDiffs(edits, files) ?? '';
    assert.match(text, /hunk 1 \([^)]*\) was rejected and not applied\. Reason: first is wrong/);
    assert.match(text, /hunk 3 \([^)]*\) was rejected and not applied\. Reason: third is wrong/);
    assert.doesNotMatch(text, /second is wrong/);
    assert.doesNotMatch(text, /hunk 2 /);
  });

  it('lets a whole-file verdict replace the reasons given for its hunks', () => {
    const review = twoFiles();
    review.setHunk('src/A.cs', 0, false, 'keep line 3');
    review.setFile('src/A.cs', false, 'not this file');
    assert.equal(review.hunkReason('src/A.cs', 0), undefined);
    const decision = review.toDecision();
    assert.deepEqual(decision.type === 'APPROVE' ? decision.files?.[0] : null, {
      filePath: 'src/A.cs',
      accepted: false,
      reason: 'not this file',
    });
  });

  it('places the CodeLens line at the first changed line of each hunk, not at its header', () => {
    const [first, second] = twoFiles().hunks('src/A.cs');
    // `line 3` changes: the hunk starts at line 1 (two context lines above it).
    assert.equal(first.newStart, 1);
    assert.equal(first.firstChangedLine, 3);
    // `line 27` changes: three context lines above it.
    assert.equal(second.newStart, 24);
    assert.equal(second.firstChangedLine, 27);
    const removal = new ReviewModel('run-4', [makeFileEdit('src/A.cs', ORIGINAL, ORIGINAL.replace('line 10\n', ''))]).hunks('src/A.cs');
    // Line 10 is gone: the lens sits where it was, above the line that now follows (old line 11).
    assert.equal(removal[0].firstChangedLine, 10);
    const created = new ReviewModel('run-5', [makeFileEdit('src/New.cs', null, 'class New {}\n')]).hunks('src/New.cs');
    assert.equal(created[0].firstChangedLine, 1);
  });

  it('refuses verdicts about files or hunks that were not proposed', () => {
    const review = twoFiles();
    assert.equal(review.setFile('src/Other.cs', true), false);
    assert.equal(review.setHunk('src/A.cs', 2, true), false);
    assert.equal(review.setHunk('src/A.cs', -1, true), false);
    assert.equal(review.allDecided(), false);
  });

  it("describes each file for the panel with its counts, each hunk's verdict and the rejected hunks' reasons", () => {
    const review = twoFiles();
    review.setHunk('src/A.cs', 0, false, 'keep line 3');
    const [a, created] = review.toFileReviews();
    assert.deepEqual(a, {
      filePath: 'src/A.cs',
      type: 'MODIFY',
      status: 'pending',
      hunkCount: 2,
      rejectedHunks: [0],
      hunkVerdicts: ['rejected', 'pending'],
      hunkReasons: { 0: 'keep line 3' },
      added: 2,
      removed: 2,
    });
    assert.equal(created.type, 'CREATE');
    assert.equal(created.added, 1);
    // A hunk accepted after its rejection keeps no reason.
    review.setHunk('src/A.cs', 0, true);
    review.setHunk('src/A.cs', 1, true);
    const [after] = review.toFileReviews();
    assert.deepEqual([after.status, after.hunkVerdicts, after.hunkReasons], ['accepted', ['accepted', 'accepted'], {}]);
  });
});
