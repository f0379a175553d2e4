import * as assert from 'node:assert/strict';
import { PathOutsideWorkspaceError } from '../../../src/core/errors';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import { UnsupportedFileError } from '../../../src/core/workspace/text-codec';
import { memoryHost } from './memory-host';

describe('StagedOverlay', () => {
  it('reads disk files, then staged content, and never writes to disk', async () => {
    const host = memoryHost({ 'src/A.cs': 'class A {}\n' });
    const overlay = new StagedOverlay(host);
    assert.equal(await overlay.read('src/A.cs'), 'class A {}\n');
    await overlay.write('src/A.cs', 'class A { int x; }\n');
    await overlay.write('src/B.cs', 'class B {}\n');
    assert.equal(await overlay.read('./src/A.cs'), 'class A { int x; }\n');
    assert.equal(await overlay.read('src/B.cs'), 'class B {}\n');
    assert.equal(host.fs.writes, 0);
    assert.equal(host.fs.text('src/A.cs'), 'class A {}\n');
    assert.equal(await overlay.read('src/Missing.cs'), null);
  });

  it('treats staged deletions as missing', async () => {
    const host = memoryHost({ 'a.txt': 'x\n' });
    const overlay = new StagedOverlay(host);
    await overlay.delete('a.txt');
    assert.equal(await overlay.read('a.txt'), null);
    assert.equal(await overlay.kind('a.txt'), 'missing');
    assert.deepEqual(overlay.stagedPaths(), ['a.txt']);
  });

  it('produces one edit per changed file with type, original, new content and a unified diff', async () => {
    const host = memoryHost({ 'src/A.cs': 'a\nb\n', 'src/Same.cs': 's\n', 'src/Gone.cs': 'g\n' });
    const overlay = new StagedOverlay(host);
    await overlay.write('src/A.cs', 'a\nB\n');
    await overlay.write('src/Same.cs', 's\n');
    await overlay.write('src/New.cs', 'n\n');
    await overlay.delete('src/Gone.cs');
    await overlay.write('src/Temp.cs', 't\n');
    await overlay.delete('src/Temp.cs');
    const edits = await overlay.edits();
    assert.deepEqual(
      edits.map((e) => [e.filePath, e.type, e.originalContent, e.newContent]),
      [
        ['src/A.cs', 'MODIFY', 'a\nb\n', 'a\nB\n'],
        ['src/Gone.cs', 'DELETE', 'g\n', null],
        ['src/New.cs', 'CREATE', null, 'n\n'],
      ],
    );
    assert.match(edits[0].diffText, /^--- a\/src\/A\.cs\n\+\+\+ b\/src\/A\.cs\n@@ -1,2 \+1,2 @@\n a\n-b\n\+B\n$/);
  });

  it('keeps CRLF line endings when the model sends LF text, and shows the model LF', async () => {
    const host = memoryHost({ 'Win.cs': 'class W\r\n{\r\n    int a;\r\n}\r\n' });
    const overlay = new StagedOverlay(host);
    assert.equal(await overlay.read('Win.cs'), 'class W\n{\n    int a;\n}\n');
    await overlay.write('Win.cs', 'class W\n{\n    int b;\n}\n');
    const [edit] = await overlay.edits();
    assert.equal(edit.newContent, 'class W\r\n{\r\n    int b;\r\n}\r\n');
    assert.match(edit.diffText, /- {4}int a;\r\n\+ {4}int b;\r\n/);
  });

  it('keeps a UTF-8 BOM and hides it from the model', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('class B {}\n')]);
    const host = memoryHost();
    host.fs.put('B.cs', bytes);
    const overlay = new StagedOverlay(host);
    assert.equal(await overlay.read('B.cs'), 'class B {}\n');
    await overlay.write('B.cs', 'class B { }\n');
    const [edit] = await overlay.edits();
    assert.equal(edit.originalContent, '\uFEFFclass B {}\n');
    assert.equal(edit.newContent, '\uFEFFclass B { }\n');
  });

  it('omits a file whose staged text equals the original even when the model sent CRLF for an LF file', async () => {
    const host = memoryHost({ 'a.txt': 'one\ntwo\n' });
    const overlay = new StagedOverlay(host);
    await overlay.write('a.txt', 'one\r\ntwo\r\n');
    assert.deepEqual(await overlay.edits(), []);
  });

  it('gives a new file the line endings its content came with', async () => {
    const overlay = new StagedOverlay(memoryHost());
    await overlay.write('crlf.cs', 'a\r\nb\r\n');
    await overlay.write('lf.cs', 'a\nb\n');
    const edits = await overlay.edits();
    assert.deepEqual(
      edits.map((e) => e.newContent),
      ['a\r\nb\r\n', 'a\nb\n'],
    );
  });

  it('refuses paths outside the workspace and tool folders', async () => {
    const overlay = new StagedOverlay(memoryHost());
    await assert.rejects(overlay.write('../evil.cs', 'x'), PathOutsideWorkspaceError);
    await assert.rejects(overlay.read('.git/config'), PathOutsideWorkspaceError);
    await assert.rejects(overlay.delete('.ironbees/runs/x/state.json'), PathOutsideWorkspaceError);
    assert.deepEqual(overlay.stagedPaths(), []);
  });

  it('refuses to decode binary and non-UTF-8 files rather than damage them', async () => {
    const host = memoryHost();
    host.fs.put('logo.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    host.fs.put('latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    host.fs.put('utf16.txt', new Uint8Array([0xff, 0xfe, 0x61, 0x00]));
    const overlay = new StagedOverlay(host);
    await assert.rejects(overlay.read('logo.png'), (e: unknown) => e instanceof UnsupportedFileError && /binary/.test(e.message));
    await assert.rejects(overlay.read('latin1.txt'), /not valid UTF-8/);
    await assert.rejects(overlay.write('utf16.txt', 'x'), /UTF-16/);
  });

  it('lists disk files merged with staged creations and deletions', async () => {
    const host = memoryHost({ 'src/A.cs': '', 'src/B.cs': '', 'src/obj/Gen.cs': '', 'README.md': '' });
    const overlay = new StagedOverlay(host);
    await overlay.write('src/C.cs', 'c');
    await overlay.write('src/bin/Out.cs', 'ignored');
    await overlay.delete('src/B.cs');
    assert.deepEqual(await overlay.listFiles('src'), ['src/A.cs', 'src/C.cs']);
    assert.deepEqual(await overlay.listFiles(), ['README.md', 'src/A.cs', 'src/C.cs']);
  });

  it('tells files, folders (on disk or implied by staged files) and missing paths apart', async () => {
    const host = memoryHost({ 'src/A.cs': 'a' });
    const overlay = new StagedOverlay(host);
    await overlay.write('newdir/X.cs', 'x');
    assert.equal(await overlay.kind('src/A.cs'), 'file');
    assert.equal(await overlay.kind('src'), 'directory');
    assert.equal(await overlay.kind(''), 'directory');
    assert.equal(await overlay.kind('newdir'), 'directory');
    assert.equal(await overlay.kind('nope'), 'missing');
  });

  it('round-trips through JSON and refuses malformed JSON whole', async () => {
    const host = memoryHost({ 'Win.cs': 'a\r\nb\r\n', 'Gone.cs': 'g\n' });
    const overlay = new StagedOverlay(host);
    await overlay.write('Win.cs', 'a\nc\n');
    await overlay.write('New.cs', 'n\n');
    await overlay.delete('Gone.cs');
    const json = JSON.parse(JSON.stringify(overlay)) as unknown;
    const restored = StagedOverlay.fromJSON(host, json);
    assert.deepEqual(await restored.edits(), await overlay.edits());
    assert.equal((await restored.edits()).find((e) => e.filePath === 'Win.cs')?.newContent, 'a\r\nc\r\n');

    assert.throws(() => StagedOverlay.fromJSON(host, { version: 1, files: [{ path: 'x', content: 3 }] }), /Not a staged overlay/);
    assert.throws(() => StagedOverlay.fromJSON(host, { version: 2, files: [] }), /version/);
    assert.throws(
      () => StagedOverlay.fromJSON(host, { version: 1, files: [{ path: '../x', content: 'x', bom: false, eol: 'lf' }] }),
      PathOutsideWorkspaceError,
    );
  });
});
