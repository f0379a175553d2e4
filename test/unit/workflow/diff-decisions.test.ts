import { strict as assert } from 'node:assert';
import { makeFileEdit, splitHunks } from '../../../src/core/workspace/diff';
import type { FileDecision } from '../../../src/core/model';
import { applyFileDecisions, describeRejectedDiffs } from '../../../src/core/workflow/diff-decisions';
import { CALC_AFTER, CALC_BEFORE, twoFileEdits } from './samples';

const FIRST_HUNK_ONLY = CALC_BEFORE.replace('a - b', 'a + b');
const SECOND_HUNK_ONLY = CALC_BEFORE.replace('=> a + b;\n}', '=> a * b;\n}');

describe('diff decisions: what is applied', () => {
  it('accepts every file when there are no decisions', () => {
    const edits = twoFileEdits();
    assert.deepEqual(applyFileDecisions(edits, undefined), edits);
    assert.deepEqual(applyFileDecisions(edits, []), edits);
  });

  it('leaves out a rejected file and keeps the files nobody decided on', () => {
    const accepted = applyFileDecisions(twoFileEdits(), [{ filePath: 'src/Notes.md', accepted: false }]);
    assert.deepEqual(
      accepted.map((e) => e.filePath),
      ['src/Calc.cs'],
    );
    assert.equal(accepted[0].newContent, CALC_AFTER);
  });

  it('applies only the accepted hunks, with a diff that shows only them', () => {
    for (const [rejected, expected] of [
      [[1], FIRST_HUNK_ONLY],
      [[0], SECOND_HUNK_ONLY],
    ] as const) {
      const [calc] = applyFileDecisions(twoFileEdits(), [{ filePath: 'src/Calc.cs', accepted: true, rejectedHunks: [...rejected] }]);
      assert.equal(calc.filePath, 'src/Calc.cs');
      assert.equal(calc.type, 'MODIFY');
      assert.equal(calc.originalContent, CALC_BEFORE);
      assert.equal(calc.newContent, expected);
      assert.equal(splitHunks(calc.diffText).length, 1);
    }
  });

  it('leaves out a file whose every hunk was rejected', () => {
    const accepted = applyFileDecisions(twoFileEdits(), [{ filePath: 'src/Calc.cs', accepted: true, rejectedHunks: [0, 1] }]);
    assert.deepEqual(
      accepted.map((e) => e.filePath),
      ['src/Notes.md'],
    );
  });

  it('counts a hunk rejected twice once', () => {
    const [calc] = applyFileDecisions(twoFileEdits(), [{ filePath: 'src/Calc.cs', accepted: true, rejectedHunks: [1, 1] }]);
    assert.equal(calc?.newContent, FIRST_HUNK_ONLY);
  });

  it('ignores hunk indexes that do not exist', () => {
    const [calc] = applyFileDecisions(twoFileEdits(), [{ filePath: 'src/Calc.cs', accepted: true, rejectedHunks: [7, -1] }]);
    assert.equal(calc.newContent, CALC_AFTER);
  });

  it('never half-applies a deletion', () => {
    const deletion = makeFileEdit('src/Old.cs', 'class Old {}\n', null);
    assert.deepEqual(applyFileDecisions([deletion], [{ filePath: 'src/Old.cs', accepted: true, rejectedHunks: [0] }]), []);
    assert.deepEqual(applyFileDecisions([deletion], [{ filePath: 'src/Old.cs', accepted: true }]), [deletion]);
  });

  it('keeps CRLF line endings and a UTF-8 BOM when only some hunks are applied', () => {
    const before = CALC_BEFORE.replace(/^/, '\uFEFF').replace(/\n/g, '\r\n');
    const after = CALC_AFTER.replace(/^/, '\uFEFF').replace(/\n/g, '\r\n');
    const edit = makeFileEdit('src/Calc.cs', before, after);
    const [calc] = applyFileDecisions([edit], [{ filePath: 'src/Calc.cs', accepted: true, rejectedHunks: [1] }]);
    assert.equal(calc.newContent, FIRST_HUNK_ONLY.replace(/^/, '\uFEFF').replace(/\n/g, '\r\n'));
  });

  it('applies part of a new file as a new file', () => {
    const created = makeFileEdit('src/New.cs', null, 'a\nb\n');
    const [kept] = applyFileDecisions([created], [{ filePath: 'src/New.cs', accepted: true }]);
    assert.equal(kept.type, 'CREATE');
    assert.deepEqual(applyFileDecisions([created], [{ filePath: 'src/New.cs', accepted: true, rejectedHunks: [0] }]), []);
  });
});

describe('diff decisions: what the coder is told', () => {
  it('says nothing when nothing was rejected', () => {
    assert.equal(describeRejectedDiffs(twoFileEdits(), []), null);
    assert.equal(describeRejectedDiffs(twoFileEdits(), [{ filePath: 'src/Calc.cs', accepted: true }]), null);
    assert.equal(describeRejectedDiffs([], undefined), null);
  });

  it('lists every file when the whole change was rejected', () => {
    const text = describeRejectedDiffs(twoFileEdits(), undefined) ?? '';
    assert.match(text, /^The person reviewed your changes:/);
    assert.match(text, /- src\/Calc\.cs: the whole change was rejected/);
    assert.match(text, /- src\/Notes\.md: the whole change was rejected/);
  });

  it('names each rejected hunk by number and header, with the reason', () => {
    const text =
      describeRejectedDiffs(twoFileEdits(), [
        { filePath: 'src/Calc.cs', accepted: true, rejectedHunks: [1], reason: 'Mul is fine' },
        { filePath: 'src/Notes.md', accepted: false, reason: 'No notes' },
      ]) ?? '';
    assert.match(text, /src\/Calc\.cs: hunk 2 \(@@ -12,5 \+12,5 @@\) was rejected and not applied\. Reason: Mul is fine/);
    assert.match(text, /src\/Notes\.md: the whole file was rejected and not applied\. Reason: No notes/);
    assert.doesNotMatch(text, /hunk 1 /);
  });

  it('tells the truth about a deletion that was not applied', () => {
    const deletion = makeFileEdit('src/Old.cs', 'class Old {}\n', null);
    const text = describeRejectedDiffs([deletion], [{ filePath: 'src/Old.cs', accepted: true, rejectedHunks: [0] }]) ?? '';
    assert.match(text, /src\/Old\.cs: the deletion was rejected; the file was kept/);
  });

  it("explains each rejected hunk with its own reason, falling back to the file's reason", () => {
    const decision = {
      filePath: 'src/Calc.cs',
      accepted: true,
      rejectedHunks: [0, 1],
      hunkReasons: { 1: 'Mul is fine' },
      reason: 'Leave Calc alone',
    };
    // Both hunks rejected is still an accepted file whose hunks are all left out.
    const text = describeRejectedDiffs(twoFileEdits(), [decision]) ?? '';
    assert.match(text, /hunk 1 \([^)]*\) was rejected and not applied\. Reason: Leave Calc alone/);
    assert.match(text, /hunk 2 \([^)]*\) was rejected and not applied\. Reason: Mul is fine/);
    assert.doesNotMatch(text, /hunk 2 [^\n]*Leave Calc alone/);
  });

  it('reads per-hunk reasons persisted as JSON (string keys) the same way', () => {
    const persisted = JSON.parse(
      JSON.stringify([{ filePath: 'src/Calc.cs', accepted: true, rejectedHunks: [1], hunkReasons: { 1: 'Mul is fine' } }]),
    ) as FileDecision[];
    const text = describeRejectedDiffs(twoFileEdits(), persisted) ?? '';
    assert.match(text, /hunk 2 \([^)]*\) was rejected and not applied\. Reason: Mul is fine/);
  });

  it('lists the per-hunk reasons of a file rejected hunk by hunk', () => {
    const text =
      describeRejectedDiffs(twoFileEdits(), [
        { filePath: 'src/Calc.cs', accepted: false, hunkReasons: { 0: 'Add is fine', 1: 'Mul is fine', 9: 'no such hunk' } },
      ]) ?? '';
    assert.match(
      text,
      /src\/Calc\.cs: the whole file was rejected and not applied\.\n {2}- hunk 1 \(@@[^)]*@@\): Add is fine\n {2}- hunk 2 \(@@[^)]*@@\): Mul is fine/,
    );
    assert.doesNotMatch(text, /no such hunk/);
  });

  it('gives a rejected deletion the reason given for its hunk', () => {
    const deletion = makeFileEdit('src/Old.cs', 'class Old {}\n', null);
    const text =
      describeRejectedDiffs(
        [deletion],
        [{ filePath: 'src/Old.cs', accepted: true, rejectedHunks: [0], hunkReasons: { 0: 'still used' } }],
      ) ?? '';
    assert.match(text, /the deletion was rejected; the file was kept\. Reason: still used/);
  });

  it('names a hunk rejected twice once', () => {
    const text = describeRejectedDiffs(twoFileEdits(), [{ filePath: 'src/Calc.cs', accepted: true, rejectedHunks: [1, 1] }]) ?? '';
    assert.equal(text.match(/hunk 2/g)?.length, 1);
  });
});
