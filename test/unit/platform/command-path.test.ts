// `dotnet` is started by its absolute path found on PATH alone: never a program of the same name in the
// workspace (Windows searches the current folder first; POSIX takes a relative PATH entry as it).

import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { findOnPath, resolveCommand } from '../../../src/core/platform/command-path';
import { NodeProcessRunner } from '../../../src/host/node/process-runner';

describe('command-path: a command by its absolute path on PATH', () => {
  describe('on Windows (path.win32, injected platform and files)', () => {
    const files = new Set([
      'C:\\repo\\dotnet.exe', // the workspace's own, the current folder
      'C:\\Program Files\\dotnet\\dotnet.exe',
      'C:\\tools\\dotnet.cmd',
      'C:\\Users\\me\\dotnet.exe',
    ]);
    const win = { platform: 'win32' as const, isRunnable: (candidate: string) => files.has(candidate) };

    it("finds dotnet.exe on PATH, skipping the current folder and every relative entry ('.', '', 'bin')", () => {
      assert.equal(
        findOnPath('dotnet', { ...win, env: { Path: '.;;bin;C:\\Program Files\\dotnet' } }),
        'C:\\Program Files\\dotnet\\dotnet.exe',
      );
      assert.equal(
        resolveCommand('dotnet', { ...win, env: { PATH: '"C:\\Program Files\\dotnet";C:\\Users\\me' } }),
        'C:\\Program Files\\dotnet\\dotnet.exe',
      );
    });

    it('never a .cmd (spawn cannot start one without a shell); nothing on PATH is ENOENT, not the workspace', () => {
      assert.equal(findOnPath('dotnet', { ...win, env: { PATH: 'C:\\tools;C:\\Users\\me' } }), 'C:\\Users\\me\\dotnet.exe');
      assert.equal(findOnPath('dotnet', { ...win, env: { PATH: 'C:\\tools' } }), null);
      assert.throws(
        () => resolveCommand('dotnet', { ...win, env: { PATH: '.;C:\\tools' } }),
        (error: NodeJS.ErrnoException) => {
          assert.equal(error.code, 'ENOENT');
          assert.equal(error.message, 'spawn dotnet ENOENT (not found on PATH)');
          return true;
        },
      );
    });

    it('a path given with its folder is started as given', () => {
      assert.equal(resolveCommand('C:\\sdk\\dotnet.exe', { ...win, env: {} }), 'C:\\sdk\\dotnet.exe');
    });
  });

  describe('a real run: a fake `dotnet` in the workspace and a relative PATH entry', () => {
    let workspace: string;
    before(() => {
      workspace = mkdtempSync(path.join(tmpdir(), 'ironbees-fake-dotnet-'));
      // Were it run, it would leave a mark and answer "fake".
      writeFileSync(path.join(workspace, 'dotnet'), `#!/bin/sh\ntouch "${path.join(workspace, 'ran')}"\necho fake\n`);
      chmodSync(path.join(workspace, 'dotnet'), 0o755);
    });
    after(() => rmSync(workspace, { recursive: true, force: true }));

    it('NodeProcessRunner runs the real dotnet, never the workspace one', async function () {
      this.timeout(60_000);
      if (findOnPath('dotnet') === null) this.skip();
      const env = { PATH: `.${path.delimiter}${process.env.PATH ?? ''}` };
      const result = await new NodeProcessRunner().run('dotnet', ['--version'], { cwd: workspace, timeoutMs: 50_000, env });
      assert.equal(existsSync(path.join(workspace, 'ran')), false, 'the workspace dotnet ran');
      assert.match(result.stdout.trim(), /^\d+\.\d+\.\d+/);
    });
  });
});
