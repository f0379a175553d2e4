import { strict as assert } from 'node:assert';
import { diffHunks } from '../../../webview-ui/src/state/diff-hunks';
import { makeFileEdit, splitHunks } from '../../../src/core/workspace/diff';

const ORIGINAL = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('webview diffHunks', () => {
  it('splits where the core does, so hunk k in the page is hunk k for the coder', () => {
    // Lines that look like a diff's own header inside the hunks: removed "-- x", added "++ y".
    const original = ORIGINAL.replace('line 3\n', '-- x\n');
    const proposed = original.replace('-- x\n', '++ y\n').replace('line 27\n', '@@ twenty-seven\n');
    const { diffText } = makeFileEdit('src/A.cs', original, proposed);
    const hunks = diffHunks(diffText);
    assert.deepEqual(
      hunks.map((h) => h.header),
      splitHunks(diffText).map((h) => h.split('\n')[0]),
    );
    assert.equal(hunks.length, 2);
    assert.deepEqual(
      hunks[0].lines.filter((l) => l.kind !== 'context').map((l) => [l.kind, l.text, l.oldNumber, l.newNumber]),
      [
        ['removed', '-- x', 3, undefined],
        ['added', '++ y', undefined, 3],
      ],
    );
    assert.deepEqual(
      hunks[1].lines.filter((l) => l.kind !== 'context').map((l) => [l.kind, l.text, l.oldNumber, l.newNumber]),
      [
        ['removed', 'line 27', 27, undefined],
        ['added', '@@ twenty-seven', undefined, 27],
      ],
    );
    assert.deepEqual([hunks[0].added, hunks[0].removed, hunks[1].index], [1, 1, 1]);
    assert.deepEqual(
      hunks[1].lines.map((l) => l.oldNumber ?? l.newNumber),
      [24, 25, 26, 27, 27, 28, 29, 30],
    );
  });

  it('numbers a new file from 1 and keeps the no-newline note as a note', () => {
    const [hunk] = diffHunks(makeFileEdit('src/New.cs', null, 'a\nb').diffText);
    assert.deepEqual(
      hunk.lines.map((l) => [l.kind, l.text, l.newNumber]),
      [
        ['added', 'a', 1],
        ['added', 'b', 2],
        ['note', '\\ No newline at end of file', undefined],
      ],
    );
  });
});
