// `npm test` on a fresh machine: a missing Debian package is installed (as root) or named in one
// line with the exact command to run, and the step fails clearly.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const SCRIPT = path.resolve(__dirname, '..', '..', '..', 'scripts', 'ensure-system-packages.mjs');

describe('scripts/ensure-system-packages.mjs', () => {
  it('with chromium, rg and bwrap not on PATH and installing not allowed, prints the one command to run and exits 1', () => {
    const bin = mkdtempSync(path.join(tmpdir(), 'ironbees-nopkgs-'));
    try {
      // A PATH with a shell and nothing else: chromium, rg and bwrap are "missing" (libkrb5-dev is asked of dpkg).
      symlinkSync('/bin/sh', path.join(bin, 'sh'));
      const result = spawnSync(process.execPath, [SCRIPT], { env: { PATH: bin, IRONBEES_NO_APT: '1' }, encoding: 'utf8' });
      assert.equal(result.status, 1);
      const lines = result.stdout.trim().split('\n');
      assert.equal(lines.length, 1);
      assert.match(
        lines[0],
        /^Missing system packages for the tests: chromium ripgrep( libkrb5-dev)? bubblewrap\. Run: sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium ripgrep( libkrb5-dev)? bubblewrap$/,
      );
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('exits 0 at once when everything is there (this machine has run .ci/run)', function () {
    const probe = spawnSync('sh', ['-c', 'command -v chromium && command -v rg && command -v bwrap && dpkg -s libkrb5-dev'], {
      stdio: 'ignore',
    });
    if (probe.status !== 0) this.skip();
    const result = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8', env: { ...process.env, IRONBEES_NO_APT: '1' } });
    assert.equal(result.status, 0);
    assert.equal(result.stdout, '');
  });
});
