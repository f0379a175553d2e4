import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeHost } from '../../../src/host/node';
import { NodeFileSystem } from '../../../src/host/node/fs';
import { StderrLogger } from '../../../src/host/node/logger';
import { NodeProcessRunner } from '../../../src/host/node/process-runner';
import { EngineCodeChecker } from '../../../src/core/csharp/engine/code-checker';
import { EngineSymbolProvider } from '../../../src/core/csharp/engine/engine-symbols';

describe('NodeFileSystem', () => {
  let root: string;
  const nodeFs = new NodeFileSystem();

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-nodefs-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('reads bytes exactly, and null for missing files and folders', async () => {
    fs.writeFileSync(path.join(root, 'a.txt'), Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a]));
    assert.deepEqual([...((await nodeFs.readFile(path.join(root, 'a.txt'))) ?? [])], [0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a]);
    assert.equal(await nodeFs.readFile(path.join(root, 'missing.txt')), null);
    assert.equal(await nodeFs.readFile(root), null);
    assert.equal(await nodeFs.readFile(path.join(root, 'a.txt', 'below')), null);
  });

  it('writes atomically, creating folders, leaving no temp files, keeping the file mode', async () => {
    const target = path.join(root, 'deep', 'er', 'x.sh');
    await nodeFs.writeFile(target, 'one');
    fs.chmodSync(target, 0o755);
    await nodeFs.writeFile(target, new TextEncoder().encode('two'));
    assert.equal(fs.readFileSync(target, 'utf8'), 'two');
    assert.deepEqual(fs.readdirSync(path.dirname(target)), ['x.sh']);
    if (process.platform !== 'win32') assert.equal(fs.statSync(target).mode & 0o777, 0o755);
  });

  it('flushes a durable write: the data before the rename, then its folder and each folder it created; a plain write flushes nothing', async function () {
    // Windows cannot open a folder to flush it (fs.ts says why that is accepted there).
    if (process.platform === 'win32') this.skip();
    const steps: string[] = [];
    const { open, rename } = fs.promises;
    const rel = (p: string): string => path.relative(root, p).split(path.sep).join('/') || '.';
    fs.promises.open = (async (file: string, flags?: string) => {
      const handle = await open(file, flags);
      const sync = handle.sync.bind(handle);
      handle.sync = async () => {
        steps.push(`sync ${rel(file).replace(/\.x\.txt\.[^/]*\.tmp$/, '<temp>')}`);
        await sync();
      };
      return handle;
    }) as typeof fs.promises.open;
    fs.promises.rename = (async (from: fs.PathLike, to: fs.PathLike) => {
      steps.push(`rename to ${rel(String(to))}`);
      await rename(from, to);
    }) as typeof fs.promises.rename;
    try {
      fs.mkdirSync(path.join(root, 'a'));
      await nodeFs.writeFile(path.join(root, 'a', 'b', 'c', 'x.txt'), 'durable', { durable: true });
      assert.deepEqual(steps, ['sync a/b/c/<temp>', 'rename to a/b/c/x.txt', 'sync a/b/c', 'sync a/b', 'sync a']);
      assert.equal(fs.readFileSync(path.join(root, 'a', 'b', 'c', 'x.txt'), 'utf8'), 'durable');
      steps.length = 0;
      await nodeFs.deleteFile(path.join(root, 'a', 'b', 'c', 'x.txt'), { durable: true });
      assert.deepEqual(steps, ['sync a/b/c']);
      steps.length = 0;
      await nodeFs.writeFile(path.join(root, 'a', 'plain.txt'), 'plain');
      await nodeFs.deleteFile(path.join(root, 'a', 'plain.txt'));
      assert.deepEqual(steps, ['rename to a/plain.txt']);
    } finally {
      fs.promises.open = open;
      fs.promises.rename = rename;
    }
  });

  it('replaces a symlink on write instead of writing through it', async () => {
    const outside = path.join(root, 'outside.txt');
    fs.writeFileSync(outside, 'keep');
    fs.symlinkSync(outside, path.join(root, 'link.txt'));
    await nodeFs.writeFile(path.join(root, 'link.txt'), 'new');
    assert.equal(fs.readFileSync(outside, 'utf8'), 'keep');
    assert.equal(fs.readFileSync(path.join(root, 'link.txt'), 'utf8'), 'new');
  });

  it('writes pieces as one file atomically; a failure while writing leaves the previous file and no temp file', async () => {
    const target = path.join(root, 'runs', 'r1', 'validations', '1.json');
    await nodeFs.writeChunks(target, ['{"a":', '"é ✓ 🐝"', '}']);
    assert.equal(fs.readFileSync(target, 'utf8'), '{"a":"é ✓ 🐝"}');
    function* failing(): Generator<string> {
      yield '{"half":';
      throw new Error('the serializer failed');
    }
    await assert.rejects(nodeFs.writeChunks(target, failing()), /the serializer failed/);
    assert.equal(fs.readFileSync(target, 'utf8'), '{"a":"é ✓ 🐝"}');
    assert.deepEqual(fs.readdirSync(path.dirname(target)), ['1.json']);
  });

  it('reads a file in 64 KB pieces through one buffer, and null for a missing file', async () => {
    const file = path.join(root, 'big.trx');
    const bytes = Buffer.alloc(150_000, 0x61);
    bytes.write('end', 150_000 - 3);
    fs.writeFileSync(file, bytes);
    const chunks = await nodeFs.readChunks(file);
    assert.ok(chunks);
    const seen: Array<{ length: number; text: string; buffer: ArrayBufferLike }> = [];
    for await (const chunk of chunks)
      seen.push({ length: chunk.length, text: Buffer.from(chunk).toString('latin1', 0, 3), buffer: chunk.buffer });
    assert.deepEqual(
      seen.map(({ length }) => length),
      [65_536, 65_536, 150_000 - 131_072],
    );
    assert.equal(new Set(seen.map(({ buffer }) => buffer)).size, 1, 'every piece is the same buffer, refilled');
    assert.equal(await nodeFs.readChunks(path.join(root, 'missing.trx')), null);
  });

  it('appends, deletes (missing is fine) and checks existence', async () => {
    const log = path.join(root, 'runs', 'r1', 'events.jsonl');
    await nodeFs.appendFile(log, 'a\n');
    await nodeFs.appendFile(log, 'b\n');
    assert.equal(fs.readFileSync(log, 'utf8'), 'a\nb\n');
    assert.equal(await nodeFs.exists(log), true);
    assert.equal(await nodeFs.exists(path.join(root, 'runs')), true);
    await nodeFs.deleteFile(log);
    await nodeFs.deleteFile(log);
    assert.equal(await nodeFs.exists(log), false);
  });

  it('makes a folder only when a write or an append finds it missing, and writes every piece into a new one', async () => {
    const made: string[] = [];
    const { mkdir } = fs.promises;
    fs.promises.mkdir = (async (dir: fs.PathLike, options?: fs.MakeDirectoryOptions) => {
      made.push(path.relative(root, String(dir)).split(path.sep).join('/'));
      return mkdir(dir, options);
    }) as typeof fs.promises.mkdir;
    try {
      const run = path.join(root, 'runs', 'r1');
      await nodeFs.appendFile(path.join(run, 'events.jsonl'), 'a\n');
      await nodeFs.appendFile(path.join(run, 'events.jsonl'), 'b\n');
      await nodeFs.writeFile(path.join(run, 'state.json'), '{}');
      await nodeFs.writeFile(path.join(run, 'state.json'), '{"a":1}');
      function* pieces(): Generator<string> {
        yield '{"b":';
        yield '2}';
      }
      await nodeFs.writeChunks(path.join(run, 'validations', '1.json'), pieces());
      await nodeFs.writeFile(path.join(run, 'edits', 'x.txt'), 'x', { durable: true });
      assert.deepEqual(made, ['runs/r1', 'runs/r1/validations', 'runs/r1/edits']);
      assert.equal(fs.readFileSync(path.join(run, 'events.jsonl'), 'utf8'), 'a\nb\n');
      assert.equal(fs.readFileSync(path.join(run, 'state.json'), 'utf8'), '{"a":1}');
      assert.equal(fs.readFileSync(path.join(run, 'validations', '1.json'), 'utf8'), '{"b":2}');
      assert.equal(fs.readFileSync(path.join(run, 'edits', 'x.txt'), 'utf8'), 'x');
    } finally {
      fs.promises.mkdir = mkdir;
    }
  });

  it('lists files with forward slashes, skipping build and tool folders, bounded', async () => {
    for (const rel of [
      'b.cs',
      'src/A.cs',
      'src/bin/Debug/x.dll',
      'src/OBJ/y.cs',
      '.git/HEAD',
      '.ironbees/runs/r/state.json',
      'node_modules/p/i.js',
      '.vs/s',
      'src/Sub/C.cs',
    ]) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), '');
    }
    fs.symlinkSync(path.join(root, 'src'), path.join(root, 'loop'), 'dir');
    fs.symlinkSync(path.join(root, 'b.cs'), path.join(root, 'b-link.cs'));
    assert.deepEqual(await nodeFs.listFiles(root), ['b-link.cs', 'b.cs', 'src/A.cs', 'src/Sub/C.cs']);
    assert.deepEqual(await nodeFs.listFiles(path.join(root, 'src')), ['A.cs', 'Sub/C.cs']);
    assert.deepEqual(await nodeFs.listFiles(root, { maxFiles: 2 }), ['b-link.cs', 'b.cs']);
    assert.deepEqual(await nodeFs.listFiles(path.join(root, 'missing')), []);
  });
});

describe('StderrLogger', () => {
  it('writes info and above by default, with a tag, to the given sink', () => {
    const lines: string[] = [];
    const previous = process.env.IRONBEES_LOG_LEVEL;
    delete process.env.IRONBEES_LOG_LEVEL;
    try {
      const quiet = new StderrLogger({ write: (l) => lines.push(l), color: false });
      quiet.debug('hidden');
      quiet.info('shown');
      quiet.warn('careful');
      quiet.error('broken');
    } finally {
      if (previous !== undefined) process.env.IRONBEES_LOG_LEVEL = previous;
    }
    assert.deepEqual(lines, ['[ironbees] info: shown', '[ironbees] warn: careful', '[ironbees] error: broken']);
  });

  it('honours an explicit level and IRONBEES_LOG_LEVEL', () => {
    const lines: string[] = [];
    new StderrLogger({ level: 'debug', write: (l) => lines.push(l), color: false }).debug('d');
    new StderrLogger({ level: 'silent', write: (l) => lines.push(l), color: false }).error('e');
    const previous = process.env.IRONBEES_LOG_LEVEL;
    process.env.IRONBEES_LOG_LEVEL = 'WARN';
    try {
      const fromEnv = new StderrLogger({ write: (l) => lines.push(l), color: false });
      fromEnv.info('i');
      fromEnv.warn('w');
    } finally {
      if (previous === undefined) delete process.env.IRONBEES_LOG_LEVEL;
      else process.env.IRONBEES_LOG_LEVEL = previous;
    }
    assert.deepEqual(lines, ['[ironbees] debug: d', '[ironbees] warn: w']);
  });
});

describe('createNodeHost', () => {
  it('wires the file system, process runner, C# engine over the text index, clock and logger, and has no diagnostics', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-host-'));
    try {
      fs.writeFileSync(path.join(root, 'A.cs'), 'namespace N { class Alpha { } }');
      const host = createNodeHost(path.join(root, '.'));
      assert.equal(host.workspaceRoot, path.resolve(root));
      assert.ok(host.fs instanceof NodeFileSystem);
      assert.ok(host.process instanceof NodeProcessRunner);
      // The engine is off in unit tests (test/support/mocha-env.cjs): the text index answers, labelled.
      assert.ok(host.symbols instanceof EngineSymbolProvider);
      assert.ok(host.codeCheck instanceof EngineCodeChecker);
      assert.equal(host.diagnostics, undefined);
      assert.ok(Math.abs(host.clock.now() - Date.now()) < 1000);
      assert.ok(host.logger instanceof StderrLogger);
      assert.deepEqual(
        (await host.symbols.findSymbols('Alpha')).map((s) => `${s.filePath}:${s.line}:${s.column}`),
        ['A.cs:1:21'],
      );
      assert.equal(
        host.symbols.takeNotice?.(),
        '[C# symbols come from the text index (names only, no types), because the C# engine is turned off (IRONBEES_ROSLYN=0). Same-named symbols may be mixed up; check with read_file.]',
      );
      const custom = { debug() {}, info() {}, warn() {}, error() {} };
      assert.equal(createNodeHost(root, { logger: custom }).logger, custom);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
