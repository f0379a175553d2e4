// `node dist/cli.js` runs the CLI bundle through a V8 code cache kept in the user's cache folder
// (src/cli/code-cache.ts): written once per bundle build, then taken as is; a cache V8 refuses is
// written again; a folder others may write is never used; IRONBEES_CODE_CACHE=0 turns it off.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { version } from '../../package.json';
import { codeCacheFile } from '../../src/cli/code-cache';
import { CLI, copyFixture, ensureCliBuilt, removeDir } from '../support/cli-harness';

const posix = process.platform !== 'win32';

function cliVersion(cacheDir: string, extraEnv: Record<string, string> = {}): void {
  const result = spawnSync(process.execPath, [CLI, '--version'], { env: { ...process.env, IRONBEES_CACHE_DIR: cacheDir, ...extraEnv }, encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout.trim(), version);
}

// Preloaded into a demo run (`-r`): whether zod's bundle (dist/cli-zod.js) is loaded when the baseline's
// `dotnet build` starts, and once the warm-up queued then has run; then the process exits (its caches are
// written). The build itself is stood in for by an empty node process: no dotnet build runs.
const ZOD_PROBE = `
const cp = require('node:child_process'), fs = require('node:fs'), path = require('node:path');
const zodLoaded = () => Object.keys(require.cache).some((file) => path.basename(file) === 'cli-zod.js');
const spawn = cp.spawn;
cp.spawn = function (command, args, options) {
  if (!/dotnet/.test(String(command)) || !Array.isArray(args) || !args.includes('build')) return spawn.apply(this, arguments);
  const atBuild = zodLoaded();
  // The warm-up is queued (setImmediate) once this first process has started: looked at one turn later.
  setImmediate(() => setImmediate(() => {
    fs.writeSync(2, 'PROBE ' + JSON.stringify({ atBuild, afterWarmUp: zodLoaded() }) + '\\n');
    process.exit(0);
  }));
  return spawn.call(this, process.execPath, ['-e', ''], options);
};
`;

/** A demo run up to its warm-up (ZOD_PROBE): when zod was loaded. */
function runUpToWarmUp(cacheDir: string, probe: string, extraEnv: Record<string, string> = {}): { atBuild: boolean; afterWarmUp: boolean } {
  const workspace = copyFixture('calculator');
  try {
    const env = { ...process.env, IRONBEES_CACHE_DIR: cacheDir, NO_COLOR: '1', ...extraEnv };
    const result = spawnSync(process.execPath, ['-r', probe, CLI, 'run', 'Fix it', '--workspace', workspace, '--demo', '--yes', '--json'], { env, encoding: 'utf8', timeout: 60_000 });
    assert.equal(result.status, 0, result.stderr);
    return JSON.parse(/^PROBE (.*)$/m.exec(result.stderr)?.[1] ?? 'null') as { atBuild: boolean; afterWarmUp: boolean };
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
    // A run that ends well (exit 0, here once its baseline build has started: ZOD_PROBE) writes it whole.
    const probe = path.join(cacheDir, 'probe.cjs');
    writeFileSync(probe, ZOD_PROBE);
    runUpToWarmUp(cacheDir, probe);
    const full = statSync(file);
    assert.notEqual(full.ino, afterFailed.ino, 'written again by the run');
    assert.deepEqual(readdirSync(path.dirname(file)).filter((name) => !name.startsWith('cli-zod-')), [path.basename(file)], 'no longer marked partial');
    spawnSync(process.execPath, [CLI, 'run'], { env, encoding: 'utf8', timeout: 60_000 });
    cliVersion(cacheDir);
    assert.equal(statSync(file).ino, full.ino, 'then taken as is');
  });

  it('keeps the four newest caches of a bundle when it writes one (older builds of the bundle; a side bundle counts apart)', () => {
    const folder = path.join(cacheDir, 'code-cache');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const old = Array.from({ length: 5 }, (_, i) => path.join(folder, `cli-${String(i).repeat(32)}-v0-x.bin`));
    const side = path.join(folder, `cli-zod-${'9'.repeat(32)}-v0-x.bin`);
    [...old, side].forEach((file, i) => {
      writeFileSync(file, 'old');
      const at = new Date(Date.now() - (i + 1) * 60_000);
      utimesSync(file, at, at);
    });
    cliVersion(cacheDir);
    const kept = readdirSync(folder).sort().filter((name) => name !== path.basename(side));
    assert.ok(existsSync(side), "the oldest file, but zod's bundle's only one");
    const keptCaches = kept.filter((name) => name.endsWith('.bin'));
    assert.equal(keptCaches.length, 4);
    assert.deepEqual(keptCaches.filter((name) => !name.endsWith('-v0-x.bin')).length, 1, 'the new one');
    assert.deepEqual(old.slice(0, 3).map((file) => path.basename(file)).sort(), kept.filter((name) => name.endsWith('-v0-x.bin')));
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

  describe("zod's bundle beside the main one (dist/cli-zod.js)", () => {
    let probe: string;
    before(() => {
      probe = path.join(mkdtempSync(path.join(tmpdir(), 'ironbees-zod-probe-')), 'probe.cjs');
      writeFileSync(probe, ZOD_PROBE);
    });
    after(() => rmSync(path.dirname(probe), { recursive: true, force: true }));

    const caches = () => readdirSync(path.join(cacheDir, 'code-cache')).sort();
    const zodCacheName = new RegExp(`^cli-zod-[0-9a-f]{32}-${process.version.replace(/\\./g, '\\.')}-${process.arch}\\.bin$`);

    it('is not loaded by a start, and has no cache until its first use', () => {
      cliVersion(cacheDir);
      assert.deepEqual(caches().filter((name) => name.startsWith('cli-zod-')), []);
    });

    it('is loaded by the warm-up during the baseline build, not before; its cache is written then, then taken as is', () => {
      assert.deepEqual(runUpToWarmUp(cacheDir, probe), { atBuild: false, afterWarmUp: true });
      const written = caches();
      assert.equal(written.length, 2, `the main cache and zod's, none partial: ${written.join(', ')}`);
      assert.match(written[1], zodCacheName);
      const zodCache = path.join(cacheDir, 'code-cache', written[1]);
      const first = statSync(zodCache);
      assert.ok(first.size > 50_000, `a cache of zod's compiled code, got ${first.size} bytes`);
      if (posix) assert.equal(first.mode & 0o777, 0o600);
      assert.deepEqual(runUpToWarmUp(cacheDir, probe), { atBuild: false, afterWarmUp: true });
      // Taken (V8 did not refuse it): not written again.
      assert.equal(statSync(zodCache).ino, first.ino);
      assert.deepEqual(caches(), written);
      // One V8 refuses is written again by the process that loaded zod.
      writeFileSync(zodCache, Buffer.alloc(first.size, 7));
      runUpToWarmUp(cacheDir, probe);
      assert.notEqual(readFileSync(zodCache)[0], 7);
    });

    it('has no cache in a folder others may write, and is loaded by the warm-up without one', function () {
      if (!posix) this.skip();
      const folder = path.join(cacheDir, 'code-cache');
      mkdirSync(folder, { recursive: true });
      chmodSync(folder, 0o777);
      assert.deepEqual(runUpToWarmUp(cacheDir, probe), { atBuild: false, afterWarmUp: true });
      assert.deepEqual(readdirSync(folder), []);
    });

    it('is loaded by Node itself with IRONBEES_CODE_CACHE=0, by the warm-up too', () => {
      assert.deepEqual(runUpToWarmUp(cacheDir, probe, { IRONBEES_CODE_CACHE: '0' }), { atBuild: false, afterWarmUp: true });
      assert.deepEqual(readdirSync(cacheDir).filter((name) => name === 'code-cache'), []);
    });
  });

  it('is named by the bundle hash, and only for a hash', () => {
    assert.equal(codeCacheFile('/c', null), null);
    assert.equal(codeCacheFile(null, 'ab'.repeat(16)), null);
    assert.equal(codeCacheFile('/c', '../../etc/passwd'), null);
    assert.equal(codeCacheFile('/c', 'ab'.repeat(16)), path.join('/c', 'code-cache', `cli-${'ab'.repeat(16)}-${process.version}-${process.arch}.bin`));
    assert.equal(codeCacheFile('/c', 'ab'.repeat(16), 'cli-zod'), path.join('/c', 'code-cache', `cli-zod-${'ab'.repeat(16)}-${process.version}-${process.arch}.bin`));
    assert.equal(codeCacheFile('/c', 'ab'.repeat(16), '../x'), null);
  });
});
