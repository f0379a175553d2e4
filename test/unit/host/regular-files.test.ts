// Only regular files are opened, and their size is checked before a byte is read: a FIFO in the
// repository never blocks list_files, search_text or read_file (opening one waits for a writer
// forever), and a huge file is refused from its size alone.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileTooLargeError, NotRegularFileError } from '../../../src/core/errors';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { ToolContext, ToolDefinition } from '../../../src/core/tools/types';
import { listFilesTool } from '../../../src/core/tools/workspace/list-files';
import { readFileTool } from '../../../src/core/tools/workspace/read-file';
import { searchTextTool } from '../../../src/core/tools/workspace/search-text';
import { MAX_TEXT_FILE_BYTES, StagedOverlay } from '../../../src/core/workspace/overlay';
import { createNodeHost } from '../../../src/host/node';
import { MAX_READ_BYTES, NodeFileSystem } from '../../../src/host/node/fs';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const FIFOS = ['a.fifo', 'src/b.fifo', 'src/c.cs', 'd.txt', 'e.log'];

describe('only regular files are opened, and only after their size is checked', function () {
  // Each call must come back at once; a FIFO opened for reading would block it (and a libuv thread) for good.
  this.timeout(10_000);
  let dir: string;
  let ctx: ToolContext;
  const registry = new ToolRegistry().register(readFileTool).register(listFilesTool).register(searchTextTool);
  /** What the model reads of an outcome. */
  const run = async (tool: ToolDefinition, input: unknown): Promise<{ ok: boolean; content?: string; error?: string }> => {
    const outcome = await registry.execute(tool, input, ctx);
    return outcome.ok ? { ok: true, content: outcome.content } : { ok: false, error: outcome.error };
  };

  before(function () {
    if (process.platform === 'win32') this.skip();
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-fifo-'));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src', 'Calc.cs'), 'class Calc { int Add; }\n');
    for (const fifo of FIFOS) execFileSync('mkfifo', [path.join(dir, fifo)]);
    const host = createNodeHost(dir, { logger: silent });
    ctx = { host, overlay: new StagedOverlay(host) };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the host refuses a FIFO before opening it, for readFile and readChunks', async () => {
    const files = new NodeFileSystem();
    const fifo = path.join(dir, 'a.fifo');
    await assert.rejects(
      files.readFile(fifo),
      (error: Error) =>
        error instanceof NotRegularFileError &&
        error.message === `${fifo} is a FIFO (named pipe), not a regular file; only regular files are read`,
    );
    await assert.rejects(files.readChunks(fifo), NotRegularFileError);
  });

  it('five FIFOs: list_files lists the regular file only, search_text finds it, read_file refuses each FIFO', async () => {
    const listed = await run(listFilesTool, {});
    assert.deepEqual(listed, { ok: true, content: '1 file(s) in .:\nsrc/Calc.cs' });
    const found = await run(searchTextTool, { query: 'Add' });
    assert.equal(found.content, '1 match(es) for "Add" in .:\nsrc/Calc.cs:1: class Calc { int Add; }');
    for (const fifo of FIFOS) {
      assert.deepEqual(await run(readFileTool, { path: fifo }), {
        ok: false,
        error: `${fifo} is a FIFO (named pipe), not a regular file; only regular files are read`,
      });
    }
  });

  it('a 1.5 GB sparse file is refused from its size, unread', async () => {
    const big = path.join(dir, 'huge.bin');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, 1.5 * 1024 * 1024 * 1024);
    await assert.rejects(
      new NodeFileSystem().readFile(big),
      (error: Error) => error instanceof FileTooLargeError && error.maxBytes === MAX_READ_BYTES,
    );
    assert.deepEqual(await run(readFileTool, { path: 'huge.bin' }), {
      ok: false,
      error: 'huge.bin is 1.5 GB; files over 256.0 MB are not read',
    });
  });

  it('a file of short lines over the text limit is paged from a stream: the page, every line counted, the caps kept', async () => {
    // 8 MB + 1 byte of "a\n": 4194305 lines, the last without its newline; the last two are "b" and "cc…".
    const bytes = Buffer.alloc(MAX_TEXT_FILE_BYTES + 1, 'a\n');
    const total = (MAX_TEXT_FILE_BYTES + 2) / 2;
    bytes.write('b\n', MAX_TEXT_FILE_BYTES - 2);
    fs.writeFileSync(path.join(dir, 'lines.log'), Buffer.concat([bytes.subarray(0, MAX_TEXT_FILE_BYTES), Buffer.from('c'.repeat(50_000))]));
    // The host would not hand the tools this file whole.
    await assert.rejects(ctx.overlay.read('lines.log'), FileTooLargeError);
    const first = await run(readFileTool, { path: 'lines.log', limit: 2 });
    assert.equal(
      first.content,
      `lines.log (lines 1-2 of ${total})\n     1\ta\n     2\ta\n[Truncated: showing lines 1-2 of ${total}. Call read_file with offset=3 for the next page.]`,
    );
    const last = await run(readFileTool, { path: 'lines.log', offset: total - 1 });
    const header = `lines.log (lines ${total - 1}-${total - 1} of ${total})`;
    // The last line (50 000 characters) does not fit the 40 000-character page: the page stops before it.
    assert.equal(
      last.content,
      `${header}\n${String(total - 1).padStart(6)}\tb\n[Truncated: showing lines ${total - 1}-${total - 1} of ${total}. Call read_file with offset=${total} for the next page.]`,
    );
    assert.deepEqual(await run(readFileTool, { path: 'lines.log', offset: total + 1 }), {
      ok: false,
      error: `offset ${total + 1} is outside lines.log, which has ${total} lines; use an offset from 1 to ${total}.`,
    });
  });
});
