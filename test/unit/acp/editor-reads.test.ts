// Reads through the editor's buffers (fs/read_text_file): which reads ask the client, which never do
// (outside the workspace, .git/.ironbees, missing, no turn, not asked for the person's text), and what
// an answer becomes (the disk's format, bounded, a malformed answer ignored).

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { EditorWrites, hostThroughEditor } from '../../../src/acp/editor-fs';
import { EditorReads } from '../../../src/acp/editor-reads';
import { FileTooLargeError } from '../../../src/core/errors';
import type { Host } from '../../../src/core/host';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import { EditJournal } from '../../../src/core/workflow/journal';
import { createMemoryHost } from '../../support/memory-host';

const ROOT = path.resolve('/ws');
const NOOP = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const FILES = {
  'src/Calc.cs': 'a - b\r\n',
  'src/Bom.cs': '\ufeffa - b\n',
  'src/Same.cs': 'same\r\n',
  '.ironbees/runs/r/state.json': '{}',
  '.git/config': '[core]',
  '../outside.txt': 'outside',
};

interface Setup {
  host: Host;
  asked: Array<[string, string]>;
  seen: Array<[string, boolean]>;
  detach(): void;
}

function setup(answer: (absPath: string) => unknown, attached = true): Setup {
  const asked: Array<[string, string]> = [];
  const seen: Array<[string, boolean]> = [];
  const reads = new EditorReads(NOOP);
  reads.useClient(async (sessionId, absPath) => {
    asked.push([sessionId, absPath]);
    return answer(absPath);
  });
  const detach = attached ? reads.attach(ROOT, { sessionId: 's1', seen: (rel, unsaved) => seen.push([rel, unsaved]) }) : () => undefined;
  return { host: hostThroughEditor(createMemoryHost(FILES, ROOT), { reads, writes: new EditorWrites() }), asked, seen, detach };
}

const read = async (
  host: Host,
  rel: string,
  options: { maxBytes?: number; editorText?: boolean } = { editorText: true },
): Promise<string | null> => {
  const bytes = await host.fs.readFile(path.join(ROOT, rel), options);
  return bytes === null ? null : new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
};

describe('acp: reads through the editor (fs/read_text_file)', () => {
  it("an unsaved buffer is read in the disk file's format (line endings, BOM); an equal one gives the disk's bytes", async () => {
    const buffers: Record<string, string> = { 'Calc.cs': 'a * b\n// unsaved\n', 'Bom.cs': 'a + b\n', 'Same.cs': 'same\n' };
    const { host, asked, seen } = setup((absPath) => ({ content: buffers[path.basename(absPath)] }));
    assert.equal(await read(host, 'src/Calc.cs'), 'a * b\r\n// unsaved\r\n');
    assert.equal(await read(host, 'src/Bom.cs'), '\ufeffa + b\n');
    assert.equal(await read(host, 'src/Same.cs'), 'same\r\n');
    assert.deepEqual(asked, [
      ['s1', path.join(ROOT, 'src/Calc.cs')],
      ['s1', path.join(ROOT, 'src/Bom.cs')],
      ['s1', path.join(ROOT, 'src/Same.cs')],
    ]);
    assert.deepEqual(seen, [
      ['src/Calc.cs', true],
      ['src/Bom.cs', true],
      ['src/Same.cs', false],
    ]);
  });

  it('never asks for a path outside the workspace, in .git or .ironbees, a missing file, or a read not for the person', async () => {
    const { host, asked } = setup(() => ({ content: 'buffer' }));
    assert.equal(await read(host, '../outside.txt'), 'outside');
    assert.equal(await read(host, '.git/config'), '[core]');
    assert.equal(await read(host, '.ironbees/runs/r/state.json'), '{}');
    assert.equal(await read(host, 'src/Missing.cs'), null);
    assert.equal(await read(host, 'src/Calc.cs', {}), 'a - b\r\n');
    assert.equal(await read(host, 'src/Calc.cs', { editorText: true, maxBytes: 0 }), 'a - b\r\n');
    assert.deepEqual(asked, []);
  });

  it('asks only while a session turn is attached to the workspace', async () => {
    const { host, asked, detach } = setup(() => ({ content: 'buffer' }));
    detach();
    assert.equal(await read(host, 'src/Calc.cs'), 'a - b\r\n');
    const idle = setup(() => ({ content: 'buffer' }), false);
    assert.equal(await read(idle.host, 'src/Calc.cs'), 'a - b\r\n');
    assert.deepEqual([...asked, ...idle.asked], []);
  });

  it('the answer is untrusted: over the size limit it is refused; without text, or failing, the saved file is read', async () => {
    const big = setup(() => ({ content: 'x'.repeat(65) }));
    await assert.rejects(read(big.host, 'src/Calc.cs', { editorText: true, maxBytes: 64 }), (error: unknown) => {
      assert.ok(error instanceof FileTooLargeError);
      assert.deepEqual([error.size, error.maxBytes], [65, 64]);
      return true;
    });
    const malformed = setup(() => ({ content: 42 }));
    assert.equal(await read(malformed.host, 'src/Calc.cs'), 'a - b\r\n');
    const failing = setup(() => {
      throw new Error('no buffer');
    });
    assert.equal(await read(failing.host, 'src/Calc.cs'), 'a - b\r\n');
    assert.deepEqual(malformed.seen, []);
  });
});

describe("acp: the run's reads of the person's text go through the editor", () => {
  const unsaved = (absPath: string): unknown => ({ content: absPath.endsWith('Calc.cs') ? 'a * b\n// unsaved\n' : 'a - b\n' });

  it("the tools' reads and a diff's before are the buffer; a search's bulk read is the disk", async () => {
    const { host, asked } = setup(unsaved);
    const overlay = new StagedOverlay(host);
    assert.equal(await overlay.read('src/Calc.cs'), 'a * b\n// unsaved\n');
    assert.equal(await overlay.read('src/Calc.cs', { bulk: true }), 'a - b\n');
    await overlay.write('src/Calc.cs', 'a / b\n// unsaved\n');
    const [edit] = await overlay.edits();
    assert.deepEqual([edit.originalContent, edit.newContent], ['a * b\r\n// unsaved\r\n', 'a / b\r\n// unsaved\r\n']);
    assert.equal(asked.length, 3, 'read, the format of the write, the diff: one request each; none for the bulk read');
  });

  it('an approved edit made on the buffer is applied (the check reads the buffer), not refused as a conflict', async () => {
    const { host } = setup(unsaved);
    const runDir = path.join(ROOT, '.ironbees/runs/r');
    const journal = new EditJournal(host, {
      runsDir: path.join(ROOT, '.ironbees/runs'),
      runDir: () => runDir,
      requireRun: async () => undefined,
      appendEvent: async () => undefined,
    });
    const edit = {
      filePath: 'src/Calc.cs',
      type: 'MODIFY' as const,
      originalContent: 'a * b\r\n// unsaved\r\n',
      newContent: 'a / b\r\n// unsaved\r\n',
      diffText: '',
    };
    await journal.applyEdits('r', [edit]);
    assert.equal(await read(host, 'src/Calc.cs', {}), 'a / b\r\n// unsaved\r\n');
  });
});
