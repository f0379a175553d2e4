// One run per workspace: the lock in .ironbees/run.lock, a second run (orchestrator or MCP start_run)
// refused with a message naming the first and nothing written, a stale lock taken over, and the
// lock released on every way out of a run.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { WorkspaceBusyError } from '../../../src/core/errors';
import { createIronbeesMcpServer } from '../../../src/mcp-server/ironbees-server';
import { acquireRunLock, runLockPath } from '../../../src/core/workflow/run-lock';
import { machineId } from '../../../src/core/workflow/machine-id';
import { exitCodeForError } from '../../../src/cli/exit-codes';
import { FakeSteps } from './fake-steps';
import { StateStream, TempWorkspace, orchestratorOver } from './orchestrator-harness';
import { baseline, planOutput, workflow } from './samples';

const STARTED = '2026-11-24T06:00:00.000Z';

function busyMessage(runId: string, where: string, lockFile: string): string {
  return (
    `Run ${runId} is in progress on this workspace (${where}, started ${STARTED}); one run at a time per workspace. ` +
    'Wait for it to end or stop it (Ctrl-C in its terminal, Cancel in the panel, or cancel_run over MCP). ' +
    `If no run is active, delete ${lockFile} and try again.`
  );
}

/** The pid of a process that has exited: nothing runs under it now (barring reuse within the test). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const rel of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const abs = path.join(dir, rel);
    files.set(rel, fs.statSync(abs).isFile() ? fs.readFileSync(abs, 'base64') : '<dir>');
  }
  return files;
}

describe('one run per workspace (run.lock)', function () {
  this.timeout(15_000);
  let ws: TempWorkspace;
  let lockFile: string;
  beforeEach(() => {
    ws = new TempWorkspace();
    lockFile = runLockPath(ws.dir);
  });
  afterEach(() => ws.remove());

  it('is created atomically with pid, host name, run id and start time, and refuses a second holder by name', () => {
    const lock = acquireRunLock(ws.dir, 'run-one', new Date(STARTED));
    assert.deepEqual(JSON.parse(fs.readFileSync(lockFile, 'utf8')), {
      pid: process.pid,
      hostname: os.hostname(),
      machineId: machineId(),
      runId: 'run-one',
      startedAt: STARTED,
    });
    assert.throws(
      () => acquireRunLock(ws.dir, 'run-two'),
      (error: unknown) => {
        assert.ok(error instanceof WorkspaceBusyError);
        assert.equal(error.message, busyMessage('run-one', `process ${process.pid}`, lockFile));
        assert.equal(exitCodeForError(error), 2);
        return true;
      },
    );
    lock.release();
    assert.equal(fs.existsSync(lockFile), false);
    acquireRunLock(ws.dir, 'run-two').release();
  });

  it('takes over a stale lock from a dead process on this machine, never one from another machine', () => {
    fs.mkdirSync(path.dirname(lockFile), { recursive: true });
    fs.writeFileSync(lockFile, JSON.stringify({ pid: deadPid(), hostname: os.hostname(), runId: 'crashed', startedAt: STARTED }));
    const lock = acquireRunLock(ws.dir, 'after-crash');
    assert.equal((JSON.parse(fs.readFileSync(lockFile, 'utf8')) as { runId: string }).runId, 'after-crash');
    lock.release();

    const pid = deadPid();
    fs.writeFileSync(lockFile, JSON.stringify({ pid, hostname: 'build-agent-7', runId: 'elsewhere', startedAt: STARTED }));
    assert.throws(() => acquireRunLock(ws.dir, 'mine'), { message: busyMessage('elsewhere', `process ${pid} on build-agent-7`, lockFile) });
  });

  it('a lock whose process exists but belongs to someone else (EPERM) is not stale', () => {
    fs.mkdirSync(path.dirname(lockFile), { recursive: true });
    const pid = deadPid();
    fs.writeFileSync(lockFile, JSON.stringify({ pid, hostname: os.hostname(), runId: 'theirs', startedAt: STARTED }));
    const realKill = process.kill;
    process.kill = ((target: number, signal?: string | number) => {
      if (target === pid && signal === 0) throw Object.assign(new Error('kill EPERM'), { code: 'EPERM' });
      return realKill.call(process, target, signal);
    }) as typeof process.kill;
    try {
      assert.throws(() => acquireRunLock(ws.dir, 'mine'), { message: busyMessage('theirs', `process ${pid}`, lockFile) });
      assert.equal((JSON.parse(fs.readFileSync(lockFile, 'utf8')) as { runId: string }).runId, 'theirs', 'left in place');
    } finally {
      process.kill = realKill;
    }
  });

  it('a process that dies of an uncaught exception or an unhandled rejection leaves no lock behind', () => {
    for (const death of ["setTimeout(() => { throw new Error('boom'); }, 1);", "Promise.reject(new Error('boom'));"]) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-lock-crash-'));
      try {
        const script = [
          `const { acquireRunLock } = require(${JSON.stringify(path.resolve(__dirname, '../../../src/core/workflow/run-lock.ts'))});`,
          `acquireRunLock(${JSON.stringify(dir)}, 'crashing');`,
          `process.stdout.write(String(require('node:fs').existsSync(${JSON.stringify(runLockPath(dir))})));`,
          death,
        ].join('\n');
        const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', timeout: 60_000 });
        assert.equal(child.status, 1, child.stderr);
        assert.equal(child.stdout, 'true', 'the lock was held');
        assert.equal(fs.existsSync(runLockPath(dir)), false, death);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('a second orchestrator run is refused before it writes anything, and the lock goes when the first run ends', async () => {
    const steps = new FakeSteps().script('captureBaseline', { output: baseline() }).script('plan', { output: planOutput() });
    const orchestrator = orchestratorOver(ws.host, steps);
    const controller = new AbortController();
    const first = new StateStream(orchestrator.execute('Fix Add', workflow({ workspaceRoot: ws.dir }), controller.signal));
    const waiting = await first.until('WAIT_PLAN_APPROVAL');
    const holder = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as { runId: string; startedAt: string };
    assert.equal(holder.runId, waiting.stateId);

    const before = snapshot(ws.dir);
    const second = new StateStream(orchestratorOver(ws.host, new FakeSteps()).execute('Another', workflow({ workspaceRoot: ws.dir })));
    await assert.rejects(
      second.next(),
      (error: unknown) =>
        error instanceof WorkspaceBusyError &&
        error.message.startsWith(`Run ${waiting.stateId} is in progress on this workspace (process ${process.pid}, started `),
    );
    await assert.rejects(new StateStream(orchestrator.resume(waiting.stateId)).next(), /already running in this process/);
    assert.deepEqual(snapshot(ws.dir), before, 'the refused run wrote nothing');

    // Ctrl-C (the abort) ends the run: the lock is gone, and a new run may start.
    controller.abort();
    await first.rest().catch(() => []);
    assert.equal(fs.existsSync(lockFile), false, 'released on interrupt');
  });

  it('is released by the time anyone sees the run end, so the next run can start at once', async () => {
    const steps = new FakeSteps().script('captureBaseline', { error: new Error('dotnet exploded') });
    const orchestrator = orchestratorOver(ws.host, steps);
    const stream = new StateStream(orchestrator.execute('Fix Add', workflow({ workspaceRoot: ws.dir })));
    const failed = await stream.until('FAILED');
    assert.equal(fs.existsSync(lockFile), false, 'released before FAILED was handed out');
    assert.equal((await orchestrator.getState(failed.stateId)).currentNode, 'FAILED');
    // The next run starts while the first one's consumer has not even pulled its end.
    const next = new StateStream(
      orchestratorOver(ws.host, new FakeSteps().script('captureBaseline', { error: new Error('again') })).execute(
        'Again',
        workflow({ workspaceRoot: ws.dir }),
      ),
    );
    assert.equal((await next.until('FAILED')).currentNode, 'FAILED');
    await stream.rest();
  });

  it('every lock still held is removed when the process exits without unwinding, through one exit listener', () => {
    const dirs = [fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-lock-a-')), fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-lock-b-'))];
    try {
      const script = [
        `const { acquireRunLock } = require(${JSON.stringify(path.resolve(__dirname, '../../../src/core/workflow/run-lock.ts'))});`,
        `const before = process.listenerCount('exit');`,
        `const dirs = ${JSON.stringify(dirs)};`,
        `for (let i = 0; i < 12; i += 1) acquireRunLock(dirs[i % 2] + '/w' + i, 'run-' + i);`,
        `process.stdout.write(String(process.listenerCount('exit') - before));`,
        'process.exit(0);',
      ].join('\n');
      const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', timeout: 60_000 });
      assert.equal(child.status, 0, child.stderr);
      assert.equal(child.stdout, '1', 'one exit listener for twelve locks');
      assert.doesNotMatch(child.stderr, /MaxListenersExceeded/);
      const left = Array.from({ length: 12 }, (_, i) => runLockPath(`${dirs[i % 2]}/w${i}`)).filter((file) => fs.existsSync(file));
      assert.deepEqual(left, []);
    } finally {
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('MCP start_run is refused while another run holds the workspace; nothing is written', async () => {
    const other = acquireRunLock(ws.dir, 'panel-run', new Date(STARTED));
    const host = ws.host;
    const server = createIronbeesMcpServer({
      host,
      version: 'test',
      orchestrator: () => Promise.resolve(orchestratorOver(host, new FakeSteps())),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    try {
      const before = snapshot(ws.dir);
      const result = (await client.callTool({ name: 'start_run', arguments: { request: 'Fix Add' } })) as CallToolResult;
      assert.equal(result.isError, true);
      assert.equal(
        (result.content[0] as { text: string }).text,
        `[InvalidInput] ${busyMessage('panel-run', `process ${process.pid}`, lockFile)}`,
      );
      assert.deepEqual(snapshot(ws.dir), before);
    } finally {
      other.release();
      await client.close();
      await server.close();
    }
  });
});
