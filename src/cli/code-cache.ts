// Runs the CLI bundle as Node would `require` it, but compiled with a V8 code cache: parsing and
// compiling it was most of a start's time, and V8 can keep that work.
// The cache is one file per bundle build (named by the bundle's hash, fixed at build time) in the
// user's own cache folder. It is only read from a folder this user owns that nobody else can write
// (its bytes become code), written whole under a temporary name then renamed (parallel starts never
// read half a file), and V8 itself refuses a cache made by another V8 or other flags. Anything
// unexpected — no folder, a rejected cache — falls back to an ordinary compile.

import { isAscii } from 'node:buffer';
import * as fs from 'node:fs';
import { Module } from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';

const KEPT_CACHES = 4;

export interface BundleRun {
  /** The cache file used (read or written), or null when the bundle ran without one. */
  cacheFile: string | null;
  /** True when V8 took the cache: the bundle was not compiled again. */
  usedCache: boolean;
}

/** The cache file for a build of the CLI bundle, or null when caching is off or the build has no hash. */
export function codeCacheFile(cacheDir: string | null, bundleHash: string | null): string | null {
  if (!cacheDir || !bundleHash || !/^[0-9a-f]{16,64}$/.test(bundleHash)) return null;
  // V8 refuses a cache from another version or architecture; naming them apart keeps each one's file.
  return path.join(cacheDir, 'code-cache', `cli-${bundleHash}-${process.version}-${process.arch}.bin`);
}

/** A folder this process's user owns and that neither group nor others can write (POSIX); Windows: exists. */
function isPrivateFolder(dir: string): boolean {
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) return false;
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return true;
  return stat.uid === process.getuid() && (stat.mode & 0o022) === 0;
}

function readCache(file: string): Buffer | undefined {
  if (!isPrivateFolder(path.dirname(file))) return undefined;
  try {
    const stat = fs.lstatSync(file);
    if (!stat.isFile() || (typeof process.getuid === 'function' && stat.uid !== process.getuid())) return undefined;
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Each build of the bundle leaves its own file; the few newest stay (two checkouts, an upgrade and back). */
function pruneOldCaches(dir: string, keep = KEPT_CACHES): void {
  const caches = fs
    .readdirSync(dir)
    .filter((name) => /^cli-[0-9a-f]{16,64}-.*\.bin$/.test(name))
    .map((name) => ({ file: path.join(dir, name), mtimeMs: fs.statSync(path.join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const old of caches.slice(keep)) {
    fs.rmSync(old.file, { force: true });
    fs.rmSync(partialMark(old.file), { force: true });
  }
}

/**
 * Beside a cache written by a short command (`--version`, `runs`): V8 had compiled only the code that
 * command used, so the first run or resume writes the cache again, then takes it as is.
 */
function partialMark(cacheFile: string): string {
  return `${cacheFile}.partial`;
}

function writeCache(file: string, script: vm.Script, fullRun: boolean): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    if (!isPrivateFolder(path.dirname(file))) return;
    // Marked before the cache is in place, unmarked after: a crash between leaves a cache written again.
    if (!fullRun) fs.writeFileSync(partialMark(file), '', { mode: 0o600 });
    fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(temporary, file);
    if (fullRun) fs.rmSync(partialMark(file), { force: true });
    pruneOldCaches(path.dirname(file));
  } catch {
    // A cache that cannot be written only costs the next start its compile.
    try {
      fs.rmSync(temporary, { force: true });
    } catch {
      // Nothing more to do at exit.
    }
  }
}

/** A module as Node's loader makes one for `file` (a bundle of ours), its exports still empty. */
function bundleModule(file: string, parent: Module | undefined): Module {
  const bundle = new Module(file, parent);
  bundle.filename = file;
  bundle.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  bundle.loaded = true;
  return bundle;
}

/**
 * Compiles and runs `bundle`'s file with the code cache at `cacheFile`, handing it `requireFn`. A
 * missing or refused cache is written at process exit, when V8 has compiled what the process used; so
 * is one a short command wrote, when this is a `fullRun`. True when V8 took the cache.
 */
function runCached(bundle: Module, requireFn: NodeJS.Require, cacheFile: string, fullRun: boolean): boolean {
  const bundleFile = bundle.filename;
  // An ASCII bundle (ours are) is its own Latin-1 text: decoded faster than as UTF-8.
  const bytes = fs.readFileSync(bundleFile);
  const source = (isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8')).replace(/^#!.*/, '');
  const cachedData = readCache(cacheFile);
  // No dynamic-import callback: a script made from a cache would lose it anyway, so the bundle has no
  // `import()` (esbuild.mjs turns them into requires and refuses a bundle that keeps one).
  const script = new vm.Script(Module.wrap(source), { filename: bundleFile, cachedData });
  const usedCache = cachedData !== undefined && !script.cachedDataRejected;
  // Only a run that ended well (exit 0) has compiled most of the bundle: one that failed at its start
  // (a bad flag, no dotnet) leaves its cache marked partial, for the next run to write again.
  if (!usedCache || (fullRun && fs.existsSync(partialMark(cacheFile))))
    process.once('exit', (code) => writeCache(cacheFile, script, fullRun && code === 0));
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(bundle.exports, bundle.exports, requireFn, bundle, bundleFile, path.dirname(bundleFile));
  return usedCache;
}

/**
 * Runs `bundleFile` (a CommonJS bundle) as the main program, with the code cache at `cacheFile` when
 * given. A missing or refused cache is written at process exit, when V8 has compiled what the run
 * used; so is one a short command wrote, when this is a `fullRun` (a run or resume, which compiles
 * most of it). It stays marked partial unless that run ended with exit 0.
 */
export function runBundle(bundleFile: string, cacheFile: string | null, fullRun = false): BundleRun {
  if (!cacheFile) {
    Module.createRequire(bundleFile)(bundleFile);
    return { cacheFile: null, usedCache: false };
  }
  const bundle = bundleModule(bundleFile, module);
  const usedCache = runCached(bundle, Module.createRequire(bundleFile), cacheFile, fullRun);
  return { cacheFile, usedCache };
}
