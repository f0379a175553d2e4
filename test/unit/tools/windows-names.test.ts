// Device names, trailing dots or spaces and colons: refused by the containment check on Windows for
// every use, and everywhere for writes (a file no Windows checkout could hold).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { resolveWorkspacePath } from '../../../src/core/workspace/paths';
import { windowsNameProblem } from '../../../src/core/workspace/windows-names';

const DEVICE = 'is a Windows device name (CON, PRN, AUX, NUL, COM1-9, LPT1-9, with any extension), not a file';

describe('windows-names', () => {
  it('names every device, with any case and extension, in any folder (path.win32 separators too)', () => {
    for (const [rel, segment] of [
      ['NUL', 'NUL'],
      ['con.cs', 'con.cs'],
      ['src/COM1.txt', 'COM1.txt'],
      ['aux', 'aux'],
      [path.win32.join('src', 'Lpt9.log'), 'Lpt9.log'],
      ['com\u00b9.txt', 'com\u00b9.txt'],
      ['CON .txt', 'CON .txt'],
      [path.win32.join('prn', 'Program.cs'), 'prn'],
    ]) {
      assert.equal(windowsNameProblem(rel), `"${segment}" ${DEVICE}`, rel);
    }
  });

  it('names a trailing dot or space, and a colon', () => {
    assert.equal(windowsNameProblem('src/a.cs.'), '"a.cs." ends in a dot or a space, which Windows drops from file names');
    assert.equal(
      windowsNameProblem(path.win32.join('src ', 'a.cs')),
      '"src " ends in a dot or a space, which Windows drops from file names',
    );
    assert.equal(
      windowsNameProblem('a.cs:hidden'),
      '"a.cs:hidden" contains a colon, which on Windows names an alternate data stream of another file',
    );
  });

  it('leaves ordinary names alone', () => {
    for (const rel of [
      'console.cs',
      'nul2.cs',
      'auxiliary/x.cs',
      'COM10.txt',
      'src/Conf/App.cs',
      'a..b.cs',
      '.editorconfig',
      'src/.hidden/a.cs',
    ]) {
      assert.equal(windowsNameProblem(rel), null, rel);
    }
  });

  describe('through the one containment check', () => {
    let root: string;
    before(() => {
      root = mkdtempSync(path.join(tmpdir(), 'ironbees-winnames-'));
    });
    after(() => rmSync(root, { recursive: true, force: true }));

    it('on Windows, refused for reading too', () => {
      assert.throws(() => resolveWorkspacePath(root, path.win32.join('src', 'con.cs'), { platform: 'win32' }), {
        message: `Refused path "src\\con.cs": "con.cs" ${DEVICE}; choose another name`,
      });
      assert.throws(() => resolveWorkspacePath(root, 'Program.cs.', { platform: 'win32' }), {
        message:
          'Refused path "Program.cs.": "Program.cs." ends in a dot or a space, which Windows drops from file names; choose another name',
      });
    });

    it('elsewhere, an existing con.cs can be read, but no such file is written', () => {
      assert.equal(resolveWorkspacePath(root, 'src/con.cs', { platform: 'linux' }).rel, 'src/con.cs');
      assert.throws(() => resolveWorkspacePath(root, 'src/con.cs', { platform: 'linux', forWrite: true }), {
        message: `Refused path "src/con.cs": "con.cs" ${DEVICE}; choose another name`,
      });
    });
  });
});
