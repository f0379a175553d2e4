import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { makeFileEdit } from '../../../src/core/tools/workspace/diff';
import { applyFileDecisions } from '../../../src/core/workflow/diff-decisions';
import { ReviewModel } from '../../../src/extension/review/review-model';

const ORIGINAL = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
// Two changes far apart: two hunks.
const PROPOSED = ORIGINAL.replace('line 3\n', 'line three\n').replace('line 27\n', 'line twenty-seven\n');

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
        { filePath: 'src/A.cs', accepted: true, rejectedHunks: [1], reason: 'keep 27' },
        { filePath: 'src/New.cs', accepted: false, reason: 'not needed' },
      ],
    });
    assert.equal(decision.type, 'APPROVE');
    const applied = applyFileDecisions([makeFileEdit('src/A.cs', ORIGINAL, PROPOSED), makeFileEdit('src/New.cs', null, 'class New {}\n')], decision.files);
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

  it('refuses verdicts about files or hunks that were not proposed', () => {
    const review = twoFiles();
    assert.equal(review.setFile('src/Other.cs', true), false);
    assert.equal(review.setHunk('src/A.cs', 2, true), false);
    assert.equal(review.setHunk('src/A.cs', -1, true), false);
    assert.equal(review.allDecided(), false);
  });

  it('describes each file for the panel with its counts', () => {
    const review = twoFiles();
    review.setHunk('src/A.cs', 0, false);
    const [a, created] = review.toFileReviews();
    assert.deepEqual(a, { filePath: 'src/A.cs', type: 'MODIFY', status: 'pending', hunkCount: 2, rejectedHunks: [0], added: 2, removed: 2 });
    assert.equal(created.type, 'CREATE');
    assert.equal(created.added, 1);
  });
});
