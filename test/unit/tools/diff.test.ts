import * as assert from 'node:assert/strict';
import { applyPatch } from 'diff';
import { applyAcceptedHunks, makeFileEdit, splitHunks, wholeFileDiff } from '../../../src/core/workspace/diff';

const lines = (n: number, f: (i: number) => string): string => Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';

describe('makeFileEdit', () => {
  it('classifies CREATE, MODIFY and DELETE and keeps both contents', () => {
    const created = makeFileEdit('src/New.cs', null, 'class New {}\n');
    assert.equal(created.type, 'CREATE');
    assert.equal(created.originalContent, null);
    assert.match(created.diffText, /^--- \/dev\/null\n\+\+\+ b\/src\/New\.cs\n@@ -0,0 \+1,1 @@\n\+class New \{\}\n$/);

    const deleted = makeFileEdit('src/Old.cs', 'a\nb\n', null);
    assert.equal(deleted.type, 'DELETE');
    assert.equal(deleted.newContent, null);
    assert.match(deleted.diffText, /\+\+\+ \/dev\/null/);
    assert.match(deleted.diffText, /-a\n-b\n/);

    const modified = makeFileEdit('src/A.cs', 'a\nb\nc\n', 'a\nB\nc\n');
    assert.equal(modified.type, 'MODIFY');
    assert.equal(modified.diffText, '--- a/src/A.cs\n+++ b/src/A.cs\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n');
  });

  it('keeps CRLF and a BOM in the diff, so applying it reproduces the bytes', () => {
    const original = '\uFEFFusing System;\r\nclass A\r\n{\r\n    int x = 1;\r\n}\r\n';
    const next = '\uFEFFusing System;\r\nclass A\r\n{\r\n    int x = 2;\r\n}\r\n';
    const edit = makeFileEdit('A.cs', original, next);
    assert.match(edit.diffText, /- {4}int x = 1;\r\n\+ {4}int x = 2;\r\n/);
    assert.equal(applyAcceptedHunks(original, edit.diffText, []), next);
  });

  it('diffs a 20,000-line file with two changes into two small hunks, quickly', () => {
    const original = lines(20_000, (i) => `line ${i}`);
    const next = original.replace('line 100\n', 'changed 100\n').replace('line 15000\n', 'changed 15000\n');
    const started = Date.now();
    const edit = makeFileEdit('big.txt', original, next);
    assert.ok(Date.now() - started < 2000, 'diff took too long');
    const hunks = splitHunks(edit.diffText);
    assert.equal(hunks.length, 2);
    assert.match(hunks[0], /^@@ -97,7 \+97,7 @@/);
    assert.equal(applyAcceptedHunks(original, edit.diffText, []), next);
    assert.equal(applyAcceptedHunks(original, edit.diffText, [0]), original.replace('line 15000\n', 'changed 15000\n'));
  });

  it('falls back to a whole-file diff when the diff would be too costly, and it still applies', () => {
    // Every other line changes: a real diff would interleave context lines; the fallback has none.
    const original = lines(20_000, (i) => (i % 2 ? `old ${i}` : `same ${i}`));
    const next = lines(20_000, (i) => (i % 2 ? `new ${i}` : `same ${i}`));
    const edit = makeFileEdit('big.txt', original, next);
    const hunks = splitHunks(edit.diffText);
    assert.equal(hunks.length, 1);
    assert.match(hunks[0], /^@@ -1,20000 \+1,20000 @@\n-old 1\n-same 2\n/);
    assert.ok(!hunks[0].split('\n').some((l) => l.startsWith(' ')), 'a whole-file diff has no context lines');
    assert.equal(applyAcceptedHunks(original, edit.diffText, []), next);
  });
});

describe('wholeFileDiff', () => {
  it('marks missing final newlines and applies with the diff package', () => {
    const text = wholeFileDiff('a/x', 'b/x', 'one\ntwo', 'uno\ndos\n');
    assert.equal(text, '--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-one\n-two\n\\ No newline at end of file\n+uno\n+dos\n');
    assert.equal(applyPatch('one\ntwo', text), 'uno\ndos\n');
  });

  it('handles empty sides', () => {
    assert.match(wholeFileDiff('/dev/null', 'b/x', '', 'a\n'), /@@ -0,0 \+1,1 @@/);
    assert.equal(applyPatch('', wholeFileDiff('/dev/null', 'b/x', '', 'a\n')), 'a\n');
    assert.equal(applyPatch('a\n', wholeFileDiff('a/x', '/dev/null', 'a\n', '')), '');
  });
});

describe('splitHunks and applyAcceptedHunks', () => {
  const original = lines(40, (i) => `L${i}`);
  const next = original.replace('L5\n', 'L5a\nL5b\n').replace('L20\n', '').replace('L35\n', 'L35!\n');
  const edit = makeFileEdit('f.txt', original, next);

  it('splits a diff into hunks that each start with their header', () => {
    const hunks = splitHunks(edit.diffText);
    assert.equal(hunks.length, 3);
    for (const hunk of hunks) assert.match(hunk, /^@@ -\d+,\d+ \+\d+,\d+ @@\n/);
    assert.match(hunks[1], /-L20/);
    assert.deepEqual(splitHunks(''), []);
  });

  it('applies only the accepted hunks, whatever is rejected before them', () => {
    assert.equal(applyAcceptedHunks(original, edit.diffText, []), next);
    assert.equal(applyAcceptedHunks(original, edit.diffText, [0, 1, 2]), original);
    assert.equal(applyAcceptedHunks(original, edit.diffText, [0]), original.replace('L20\n', '').replace('L35\n', 'L35!\n'));
    assert.equal(applyAcceptedHunks(original, edit.diffText, [1]), original.replace('L5\n', 'L5a\nL5b\n').replace('L35\n', 'L35!\n'));
    assert.equal(applyAcceptedHunks(original, edit.diffText, [0, 1]), original.replace('L35\n', 'L35!\n'));
    assert.equal(applyAcceptedHunks(original, edit.diffText, [2, 99]), original.replace('L5\n', 'L5a\nL5b\n').replace('L20\n', ''));
  });

  it('applies accepted hunks of a CRLF file', () => {
    const crlf = original.replace(/\n/g, '\r\n');
    const crlfNext = next.replace(/\n/g, '\r\n');
    const crlfEdit = makeFileEdit('f.txt', crlf, crlfNext);
    assert.equal(applyAcceptedHunks(crlf, crlfEdit.diffText, [1]), crlf.replace('L5\r\n', 'L5a\r\nL5b\r\n').replace('L35\r\n', 'L35!\r\n'));
  });

  it('throws when the diff was not made from this original (a bug, not a model error)', () => {
    assert.throws(() => applyAcceptedHunks('something else entirely\n', edit.diffText, []), /does not apply/);
  });
});
