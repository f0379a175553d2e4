// A read-only file (TFVC, Perforce) is refused at once with what to do, not replaced, and not retried.

import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { NodeFileSystem } from '../../../src/host/node/fs';
import { readOnlyMessage } from '../../../src/host/node/read-only';

describe('NodeFileSystem and read-only files', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ironbees-readonly-'));
    file = path.join(dir, 'Calculator.cs');
    writeFileSync(file, 'original\n');
    chmodSync(file, 0o444);
  });
  afterEach(() => {
    chmodSync(file, 0o644);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a write is refused with the file, why and what to do; the file keeps its bytes', async () => {
    await assert.rejects(new NodeFileSystem().writeFile(file, 'changed\n', { durable: true }), (error: NodeJS.ErrnoException) => {
      assert.equal(error.code, 'EPERM');
      assert.equal(
        error.message,
        `${file} is read-only, so Ironbees did not change it. Version control such as TFVC or Perforce keeps files read-only until they are checked out: ` +
          'check it out for editing (tf checkout, p4 edit) or clear its read-only flag, then try again.',
      );
      assert.equal(error.message, readOnlyMessage(file));
      return true;
    });
    assert.equal(readFileSync(file, 'utf8'), 'original\n');
  });

  it('so is a delete', async () => {
    await assert.rejects(new NodeFileSystem().deleteFile(file), { message: readOnlyMessage(file) });
    assert.equal(readFileSync(file, 'utf8'), 'original\n');
  });

  it('a writable file is written as before', async () => {
    chmodSync(file, 0o644);
    await new NodeFileSystem().writeFile(file, 'changed\n');
    assert.equal(readFileSync(file, 'utf8'), 'changed\n');
  });
});
