// `node dist/cli.js` runs the CLI bundle through a V8 code cache kept in the user's cache folder
// (src/cli/code-cache.ts): written once per bundle build, then taken as is; a cache V8 refuses is
// written again; a folder others may write is never used; IRONBEES_CODE_CACHE=0 turns it off.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { version } from '../../package.json';
import { codeCacheFile } from '../../src/cli/code-cache';
import { CLI, copyFixture, ensureCliBuilt, removeDir } from '../support/cli-harness';

const posix = process.platform !== 'win32';

function cliVersion(cacheDir: string, extraEnv: Record<string, string> = {}): void {
  const result = spawnSync(process.execPath, [CLI, '--version'], {
    env: { ...process.env, IRONBEES_CACHE_DIR: cacheDir, ...extraEnv },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout.trim(), version);
}

// Preloaded into a demo run (`-r`): the run ends (exit 0, its cache written) once the baseline's
// `dotnet build` starts. The build itself is stood in for by an empty node process: no dotnet build runs.
const BUILD_PROBE = `
const cp = require('node:child_process'), fs = require('node:fs');
const spawn = cp.spawn;
cp.spawn = function (command, args, options) {
  // dotnet itself, or bwrap starting it in the sandbox.
  if (!Array.isArray(args) || !/dotnet/.test([command, ...args].join(' ')) || !args.includes('build')) return spawn.apply(this, arguments);
  setImmediate(() => {
    fs.writeSync(2, 'PROBE build\\n');
    process.exit(0);
  });
  return spawn.call(this, process.execPath, ['-e', ''], options);
};
`;

/** A demo run up to its baseline build (BUILD_PROBE), which it reaches. */
function runUpToBuild(cacheDir: string, probe: string, extraEnv: Record<string, string> = {}): void {
  const workspace = copyFixture('calculator');
  try {
    const env = { ...process.env, IRONBEES_CACHE_DIR: cacheDir, NO_COLOR: '1', ...extraEnv };
    const result = spawnSync(process.execPath, ['-r', probe, CLI, 'run', 'Fix it', '--workspace', workspace, '--demo', '--yes', '--json'], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /^PROBE build$/m);
  } finally {
    removeDir(workspace);
  }
}

function onlyCacheFile(cacheDir: string): string {
  const files = readdirSync(path.join(cacheDir, 'code-cache')).filter((name) => !name.endsWith('.partial'));
  assert.equal(files.length, 1, `one cache file, found: ${files.join(', ')}`);
  assert.match(files[0], new RegExp(`^cli-[0-9a-f]{32}-${process.version.replace(/\./g, '\\.')}-${process.arch}\\.bin$`));
  return path.join(cacheDir, 'code-cache', files[0]);
}

describe('CLI code cache', function () {
  this.timeout(120_000);
  let cacheDir: string;

  before(() => ensureCliBuilt());
  beforeEach(() => {
    cacheDir = mkdtempSync(path.join(tmpdir(), 'ironbees-code-cache-'));
  });
  afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

  it('is written by the first start, private to the user, then taken as is', () => {
    cliVersion(cacheDir);
    const file = onlyCacheFile(cacheDir);
    const first = statSync(file);
    assert.ok(first.size > 100_000, `a cache of the compiled bundle, got ${first.size} bytes`);
    if (posix) {
      assert.equal(first.mode & 0o777, 0o600);
      assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
    }
    cliVersion(cacheDir);
    const second = statSync(file);
    // Taken: not written again (a refused cache is replaced by a new file).
    assert.equal(second.ino, first.ino);
    assert.equal(second.mtimeMs, first.mtimeMs);
  });

  it('is written again by the first run that ends well after a short command or a failed run wrote it, then taken as is', () => {
    cliVersion(cacheDir);
    const file = onlyCacheFile(cacheDir);
    const short = statSync(file);
    const marked = [path.basename(file), `${path.basename(file)}.partial`];
    assert.deepEqual(readdirSync(path.dirname(file)).sort(), marked);
    // `run` without a request stops at its usage error (exit 2): it compiled little, so it is written again and still marked.
    const env = { ...process.env, IRONBEES_CACHE_DIR: cacheDir };
    const failed = spawnSync(process.execPath, [CLI, 'run'], { env, encoding: 'utf8', timeout: 60_000 });
    assert.equal(failed.status, 2, failed.stderr);
    const afterFailed = statSync(file);
    assert.notEqual(afterFailed.ino, short.ino, 'written again by the failed run');
    assert.deepEqual(readdirSync(path.dirname(file)).sort(), marked, 'still marked partial');
    // A run that ends well (exit 0, here once its baseline build has started: BUILD_PROBE) writes it whole.
    const probe = path.join(cacheDir, 'probe.cjs');
    writeFileSync(probe, BUILD_PROBE);
    runUpToBuild(cacheDir, probe);
    const full = statSync(file);
    assert.notEqual(full.ino, afterFailed.ino, 'written again by the run');
    assert.deepEqual(
      readdirSync(path.dirname(file)).filter((name) => name !== 'probe.cjs'),
      [path.basename(file)],
      'no longer marked partial',
    );
    spawnSync(process.execPath, [CLI, 'run'], { env, encoding: 'utf8', timeout: 60_000 });
    cliVersion(cacheDir);
    assert.equal(statSync(file).ino, full.ino, 'then taken as is');
  });

  it('keeps the four newest caches when it writes one (older builds of the bundle), and no file of another name', () => {
    const folder = path.join(cacheDir, 'code-cache');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const old = Array.from({ length: 5 }, (_, i) => path.join(folder, `cli-${String(i).repeat(32)}-v0-x.bin`));
    const other = path.join(folder, 'notes.bin');
    [...old, other].forEach((file, i) => {
      writeFileSync(file, 'old');
      const at = new Date(Date.now() - (i + 1) * 60_000);
      utimesSync(file, at, at);
    });
    cliVersion(cacheDir);
    const kept = readdirSync(folder)
      .sort()
      .filter((name) => name !== path.basename(other));
    assert.ok(existsSync(other), 'the oldest file, but not a cache of the bundle');
    const keptCaches = kept.filter((name) => name.endsWith('.bin'));
    assert.equal(keptCaches.length, 4);
    assert.deepEqual(keptCaches.filter((name) => !name.endsWith('-v0-x.bin')).length, 1, 'the new one');
    assert.deepEqual(
      old
        .slice(0, 3)
        .map((file) => path.basename(file))
        .sort(),
      kept.filter((name) => name.endsWith('-v0-x.bin')),
    );
  });

  it('writes again a cache V8 refuses', () => {
    cliVersion(cacheDir);
    const file = onlyCacheFile(cacheDir);
    const garbage = Buffer.alloc(statSync(file).size, 7);
    writeFileSync(file, garbage);
    cliVersion(cacheDir);
    const rewritten = readFileSync(file);
    assert.notDeepEqual(rewritten.subarray(0, 64), garbage.subarray(0, 64));
  });

  it('leaves alone a cache folder others may write', function () {
    if (!posix) this.skip();
    const folder = path.join(cacheDir, 'code-cache');
    mkdirSync(folder, { recursive: true });
    chmodSync(folder, 0o777);
    cliVersion(cacheDir);
    assert.deepEqual(readdirSync(folder), []);
  });

  it('is off with IRONBEES_CODE_CACHE=0', () => {
    cliVersion(cacheDir, { IRONBEES_CODE_CACHE: '0' });
    assert.deepEqual(readdirSync(cacheDir), []);
  });

  it('runs a bundle with no import() left, which a script made from a cache could not run', () => {
    // esbuild.mjs lowers them (the OTLP exporter loads http this way) and refuses a bundle that keeps one.
    assert.doesNotMatch(readFileSync(path.join(path.dirname(CLI), 'cli-main.js'), 'utf8'), /\bimport\("/);
  });

  it('is named by the bundle hash, and only for a hash', () => {
    assert.equal(codeCacheFile('/c', null), null);
    assert.equal(codeCacheFile(null, 'ab'.repeat(16)), null);
    assert.equal(codeCacheFile('/c', '../../etc/passwd'), null);
    assert.equal(
      codeCacheFile('/c', 'ab'.repeat(16)),
      path.join('/c', 'code-cache', `cli-${'ab'.repeat(16)}-${process.version}-${process.arch}.bin`),
    );
  });
});
