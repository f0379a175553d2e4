import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { NodeProcessRunner } from '../../../src/host/node/process-runner';

const posix = process.platform !== 'win32';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

function readPids(file: string): number[] {
  return readFileSync(file, 'utf8').split(/\s+/).filter(Boolean).map(Number);
}

describe('NodeProcessRunner', function () {
  this.timeout(20_000);
  let dir: string;
  const runner = new NodeProcessRunner();

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ironbees-runner-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('returns stdout, stderr and the exit code, without a shell', async () => {
    const result = await runner.run(
      process.execPath,
      ['-e', 'process.stdout.write("out $HOME"); process.stderr.write("err"); process.exit(3)'],
      {
        cwd: dir,
        timeoutMs: 10_000,
      },
    );
    assert.equal(result.stdout, 'out $HOME', 'arguments reach the program verbatim');
    assert.equal(result.stderr, 'err');
    assert.equal(result.exitCode, 3);
    assert.equal(result.timedOut, false);
    assert.equal(result.cancelled, false);
    assert.ok(result.durationMs >= 0);
  });

  it('sets the quiet .NET environment and lets the caller add to it', async () => {
    const result = await runner.run(
      process.execPath,
      ['-e', 'process.stdout.write([process.env.DOTNET_CLI_TELEMETRY_OPTOUT, process.env.DOTNET_NOLOGO, process.env.EXTRA].join(","))'],
      {
        cwd: dir,
        timeoutMs: 10_000,
        env: { EXTRA: 'yes' },
      },
    );
    assert.equal(result.stdout, '1,1,yes');
  });

  it('streams output as it comes', async () => {
    const chunks: string[] = [];
    await runner.run(process.execPath, ['-e', 'console.log("a"); console.error("b")'], {
      cwd: dir,
      timeoutMs: 10_000,
      onOutput: (chunk, stream) => chunks.push(`${stream}:${chunk.trim()}`),
    });
    assert.deepEqual(chunks.sort(), ['stderr:b', 'stdout:a']);
  });

  it('keeps only the tail of a very chatty command', async () => {
    const small = new NodeProcessRunner({ maxKeptOutput: 1000 });
    const result = await small.run(process.execPath, ['-e', 'for (let i = 0; i < 20000; i++) console.log("line " + i)'], {
      cwd: dir,
      timeoutMs: 10_000,
    });
    assert.ok(result.stdout.length < 1100, `kept ${result.stdout.length} characters`);
    assert.match(result.stdout, /earlier output dropped/);
    assert.match(result.stdout, /line 19999\n$/);
  });

  it('rejects with code ENOENT when the command does not exist', async () => {
    await assert.rejects(
      runner.run('ironbees-no-such-command', [], { cwd: dir, timeoutMs: 5_000 }),
      (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
    );
  });

  it('kills the whole tree at the time limit, re-parented grandchildren included', async function () {
    if (!posix) this.skip();
    const pids = path.join(dir, 'pids');
    // A child in the tree, and one that escapes it by double-forking (its parent exits at once).
    const script = `sleep 300 & echo $! >> ${pids}; (sleep 301 & echo $! >> ${pids}); sleep 302`;
    const result = await runner.run('sh', ['-c', script], { cwd: dir, timeoutMs: 1_000 });
    assert.equal(result.timedOut, true);
    assert.equal(result.exitCode, null);
    const spawned = readPids(pids);
    assert.equal(spawned.length, 2);
    assert.ok(await waitFor(() => spawned.every((pid) => !isAlive(pid)), 5_000), `still alive: ${spawned.filter(isAlive).join(', ')}`);
  });

  it('kills the tree when the signal aborts, and says it was cancelled', async function () {
    if (!posix) this.skip();
    const pids = path.join(dir, 'pids');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    const result = await runner.run('sh', ['-c', `sleep 300 & echo $! > ${pids}; wait`], {
      cwd: dir,
      timeoutMs: 10_000,
      signal: controller.signal,
    });
    assert.equal(result.cancelled, true);
    assert.equal(result.timedOut, false);
    const [sleeper] = readPids(pids);
    assert.ok(sleeper && (await waitFor(() => !isAlive(sleeper), 5_000)));
  });

  it('does not start a command whose signal has already aborted', async () => {
    const marker = path.join(dir, 'ran');
    const controller = new AbortController();
    controller.abort();
    const result = await runner.run(process.execPath, ['-e', `require("fs").writeFileSync(${JSON.stringify(marker)}, "x")`], {
      cwd: dir,
      timeoutMs: 5_000,
      signal: controller.signal,
    });
    assert.equal(result.cancelled, true);
    assert.equal(existsSync(marker), false);
  });

  it('returns soon after exit even when a left-behind process holds the pipes', async function () {
    if (!posix) this.skip();
    const pids = path.join(dir, 'pids');
    const started = Date.now();
    const result = await runner.run('sh', ['-c', `sleep 30 & echo $! > ${pids}; echo done`], { cwd: dir, timeoutMs: 20_000 });
    assert.equal(result.exitCode, 0);
    assert.match(result.stdout, /done/);
    assert.ok(Date.now() - started < 5_000, 'did not wait for the lingering sleep');
    const [lingering] = readPids(pids);
    assert.ok(lingering && isAlive(lingering), 'a normal exit leaves servers alone');
    // A later command that times out takes what earlier commands left behind (a hung MSBuild node's Exec).
    const killed = await runner.run('sh', ['-c', 'sleep 300'], { cwd: dir, timeoutMs: 500 });
    assert.equal(killed.timedOut, true);
    assert.ok(await waitFor(() => !isAlive(lingering), 5_000), 'the lingering group was reaped');
  });

  it("stopLeftRunning stops what this runner's commands left running, not another runner's", async function () {
    if (!posix) this.skip();
    const other = new NodeProcessRunner();
    const leave = async (who: NodeProcessRunner, name: string): Promise<number> => {
      const file = path.join(dir, name);
      await who.run('sh', ['-c', `sleep 30 & echo $! > ${file}`], { cwd: dir, timeoutMs: 20_000 });
      return readPids(file)[0] as number;
    };
    const mine = await leave(runner, 'mine');
    const theirs = await leave(other, 'theirs');
    assert.equal(runner.stopLeftRunning(), 1);
    assert.ok(await waitFor(() => !isAlive(mine), 5_000), "this runner's server was not stopped");
    assert.equal(isAlive(theirs), true, "another runner's server was stopped");
    assert.equal(runner.stopLeftRunning(), 0);
    assert.equal(other.stopLeftRunning(), 1);
    assert.ok(await waitFor(() => !isAlive(theirs), 5_000));
  });
});
