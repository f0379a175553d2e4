// One run per workspace with two real CLI processes: while one run is active (held at its planner's
// model call), a second `run` and a second `resume` exit 2 naming it and change no byte of the
// workspace; Ctrl-C releases the lock; a lock left by a dead process is taken over by `resume`.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, removeDir, runCli, startCli, until } from '../support/cli-harness';
import type { CliRun } from '../support/cli-harness';

/** Every file of the workspace with its bytes: what a refused run must leave exactly as it was. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const rel of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const abs = path.join(dir, rel);
    files.set(rel, fs.statSync(abs).isFile() ? fs.readFileSync(abs, 'base64') : '<dir>');
  }
  return files;
}

describe('ironbees CLI: one run per workspace', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  let workspace: string;
  let env: Record<string, string>;
  const releases: Array<() => void> = [];
  const running: CliRun[] = [];

  /** A planner call that does not answer until the test is done with the run. */
  const holdNextModelCall = (): void => {
    fake.enqueue(
      () =>
        new Promise((resolve) =>
          releases.push(() =>
            resolve(toolUse('submit_plan', { spec: 's', plan: { summary: 's', steps: [], affectedFiles: [], complexity: 'LOW' } })),
          ),
        ),
    );
  };

  before(async () => {
    ensureCliBuilt();
    fake = await startFakeAnthropic();
    workspace = copyFixture('calculator');
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url };
  });
  after(async () => {
    for (const run of running) if (run.child.exitCode === null) process.kill(-(run.child.pid as number), 'SIGKILL');
    for (const release of releases) release();
    await fake.close();
    removeDir(workspace);
  });

  it('refuses a second run and a second resume while a run is active (exit 2, nothing written); Ctrl-C releases; a stale lock is taken over', async () => {
    const lockFile = path.join(workspace, '.ironbees', 'run.lock');
    holdNextModelCall();
    const first = startCli(['run', 'Fix the failing Calculator test', '--workspace', workspace, '--yes', '--json'], env);
    running.push(first);
    await first.waitForNode('PLAN');
    assert.ok(await until(() => fake.requests.length === 1, 60_000), 'the planner called the model');
    const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as { pid: number; hostname: string; runId: string; startedAt: string };
    const runId = lock.runId;
    assert.deepEqual({ pid: lock.pid, hostname: lock.hostname }, { pid: first.child.pid, hostname: os.hostname() });

    const before = snapshot(workspace);
    const second = await runCli(['run', 'Add a Modulo method', '--workspace', workspace, '--yes', '--json'], env);
    assert.equal(second.code, 2, second.stderr);
    assert.equal(second.stdout, '');
    assert.match(
      second.stderr,
      new RegExp(
        `Run ${runId} is in progress on this workspace \\(process ${first.child.pid}, started ${lock.startedAt.replace(/\./g, '\\.')}\\); one run at a time per workspace\\.`,
      ),
    );
    const secondResume = await runCli(['resume', runId, '--workspace', workspace, '--yes', '--json'], env);
    assert.equal(secondResume.code, 2, secondResume.stderr);
    assert.match(secondResume.stderr, new RegExp(`Run ${runId} is in progress on this workspace`));
    assert.deepEqual(snapshot(workspace), before, 'the refused run and resume changed no byte of the workspace');
    assert.equal(fake.requests.length, 1, 'the refused runs never called the model');

    // Ctrl-C: the run is persisted and resumable, and the workspace is free again.
    process.kill(-(first.child.pid as number), 'SIGINT');
    assert.equal((await first.done).code, 130);
    assert.equal(fs.existsSync(lockFile), false, 'the lock is released on Ctrl-C');

    // A run killed outright leaves its lock behind; its process is gone, so the next run takes the lock over.
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    fs.writeFileSync(lockFile, JSON.stringify({ pid: dead, hostname: os.hostname(), runId: 'killed-run', startedAt: lock.startedAt }));
    holdNextModelCall();
    const resumed = startCli(['resume', runId, '--workspace', workspace, '--yes', '--json'], env);
    running.push(resumed);
    assert.ok(await until(() => fake.requests.length === 2, 60_000), 'the resumed planner called the model');
    assert.deepEqual(JSON.parse(fs.readFileSync(lockFile, 'utf8')) as unknown, {
      ...(JSON.parse(fs.readFileSync(lockFile, 'utf8')) as object),
      pid: resumed.child.pid,
      hostname: os.hostname(),
      runId,
    });
    process.kill(-(resumed.child.pid as number), 'SIGINT');
    assert.equal((await resumed.done).code, 130);
    assert.equal(fs.existsSync(lockFile), false);
  });
});
