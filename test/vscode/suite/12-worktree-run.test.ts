// "Run Agent in a Worktree" in the real extension host, with the scripted demo model and real dotnet:
// the suite's workspace is made a git repository first; the run works on branch ironbees/<runId> in
// its own worktree, the person's working tree (a local change included) is byte-identical after it,
// the branch holds the run's commit, and "Apply Worktree Run to Working Tree" writes the branch's
// file into the working tree with nothing staged.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CodingState } from '../../../src/core/model';
import { GitRepo } from '../../../src/core/workspace/git-worktrees';
import { readRecord, writeRecord } from '../../../src/core/workflow/worktree-runs';
import { openWorktreeSession } from '../../../src/core/workflow/worktree-session';
import { NodeProcessRunner } from '../../../src/host/node/process-runner';
import { SOURCE, TARGET, eventually, ironbees, readWorkspaceFile, setUserSetting, testHooks, workspaceRoot } from './helpers';

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: workspaceRoot(), encoding: 'utf8' }).replace(/\n$/, '');
}

/** Every file of the working tree but .git and .ironbees, path → bytes (base64). */
function snapshot(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (dir === root && (entry.name === '.git' || entry.name === '.ironbees')) continue;
        walk(full);
      } else files.set(path.relative(root, full), fs.readFileSync(full).toString('base64'));
    }
  };
  walk(root);
  return files;
}

describe('Run Agent in a Worktree (real extension host, real git and dotnet)', function () {
  this.timeout(300_000);
  const LOCAL = 'LOCAL-NOTES.txt';
  let runId = '';
  let head = '';
  let original = '';
  let untouched = new Map<string, string>();
  let madeRepo = false;

  before(async () => {
    const root = workspaceRoot();
    if (!fs.existsSync(path.join(root, '.git'))) {
      madeRepo = true;
      git('init', '--quiet', '--initial-branch=main');
      git('config', 'user.email', 'person@example.com');
      git('config', 'user.name', 'Person');
      fs.writeFileSync(path.join(root, '.gitignore'), 'bin/\nobj/\n.ironbees/\n.vscode/\n');
      git('add', '-A');
      git('commit', '--quiet', '-m', 'the calculator');
    }
    head = git('rev-parse', 'HEAD');
    original = readWorkspaceFile(SOURCE) ?? '';
    // A change the person has not committed: the run must neither take it nor touch it.
    fs.writeFileSync(path.join(root, LOCAL), 'my uncommitted notes\r\n');
    await setUserSetting('approval.plan', 'never');
    await setUserSetting('approval.diffs', 'never');
  });

  after(async () => {
    for (const key of ['approval.diffs', 'approval.plan']) await setUserSetting(key, undefined);
    const root = workspaceRoot();
    fs.rmSync(path.join(root, LOCAL), { force: true });
    fs.writeFileSync(path.join(root, SOURCE), original);
    // The suites after this one get the workspace as it was: not a repository.
    if (madeRepo) for (const made of ['.git', '.gitignore']) fs.rmSync(path.join(root, made), { recursive: true, force: true });
  });

  it('works on branch ironbees/<runId> in its own worktree and leaves the working tree byte-identical', async () => {
    const { controller, worktrees } = await ironbees();
    untouched = snapshot(workspaceRoot());
    const first = (await vscode.commands.executeCommand('ironbees.runAgentInWorktree', 'Fix the failing Calculator test', TARGET)) as
      CodingState | undefined;
    assert.ok(first, 'the command returns the first state');
    runId = first.stateId;
    const ended = worktrees.ended(runId);
    assert.ok(ended, 'the run is known as a worktree run');
    const end = await ended;
    assert.equal(controller.state?.stateId, runId);
    assert.equal(controller.state?.currentNode, 'SUCCESS', JSON.stringify(controller.state?.testResult));
    assert.deepEqual({ kept: end.branchKept, commits: end.commits }, { kept: true, commits: 1 });
    // Its review names the worktree's lines: no comment on the person's files.
    assert.equal(controller.state?.review?.criticalIssues.length, 1);
    assert.deepEqual((await ironbees()).reviewComments.threads, []);

    assert.deepEqual(snapshot(workspaceRoot()), untouched);
    assert.equal(readWorkspaceFile(SOURCE), original);
    assert.equal(git('rev-parse', 'HEAD'), head);
    assert.equal(git('status', '--porcelain'), `?? ${LOCAL}`);
    assert.equal(git('diff', '--name-only', `${head}..ironbees/${runId}`), SOURCE);
    assert.match(git('show', `ironbees/${runId}:${SOURCE}`), /return a \/ b;/);
    assert.equal(git('log', '--format=%H', `${head}..ironbees/${runId}`).split('\n').length, 1);
    assert.equal(
      git('worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree ')).length,
      1,
    );
    assert.equal(fs.existsSync(path.join(workspaceRoot(), '.ironbees', 'worktrees', runId)), false);
    // The run folder came back to the person's workspace: the history lists the run.
    const history = await controller.history();
    assert.deepEqual(
      history.filter((r) => r.runId === runId).map((r) => r.currentNode),
      ['SUCCESS'],
    );
  });

  it('Apply Worktree Run to Working Tree writes the branch file into the working tree, nothing staged', async () => {
    const applied = (await vscode.commands.executeCommand('ironbees.applyWorktreeRun', runId, { yes: true })) as string[] | undefined;
    assert.deepEqual(applied, [SOURCE]);
    const branchBytes = execFileSync('git', ['show', `ironbees/${runId}:${SOURCE}`], { cwd: workspaceRoot() });
    assert.ok(fs.readFileSync(path.join(workspaceRoot(), SOURCE)).equals(branchBytes), 'the file is the branch version, byte for byte');
    assert.equal(git('diff', '--cached', '--name-only'), '');
    assert.equal(git('status', '--porcelain'), ` M ${SOURCE}\n?? ${LOCAL}`);
    assert.equal(fs.readFileSync(path.join(workspaceRoot(), LOCAL), 'utf8'), 'my uncommitted notes\r\n');
  });

  it('Revert and Resume of a worktree run are refused: they would write the working tree from its journal', async () => {
    const { controller } = await ironbees();
    const applied = fs.readFileSync(path.join(workspaceRoot(), SOURCE));
    const message = `Run ${runId} worked in a git worktree, not in your working tree; `;
    await assert.rejects(controller.revert(runId), {
      message: `${message}its work is only on branch ironbees/${runId}: \`ironbees revert ${runId}\` deletes it.`,
    });
    await assert.rejects(controller.resume(runId), { message: `${message}\`ironbees resume ${runId}\` goes on in its worktree.` });
    assert.ok(fs.readFileSync(path.join(workspaceRoot(), SOURCE)).equals(applied), 'the working file is as applied');
    assert.equal(git('rev-parse', '--verify', '--quiet', `ironbees/${runId}`).length, 40);
  });

  it('a worktree run whose window went away mid-run is cleaned up when the extension starts again', async () => {
    const root = workspaceRoot();
    const session = await openWorktreeSession(await GitRepo.open(new NodeProcessRunner(), root), root);
    // Its extension host is gone: a process that already exited.
    const dead = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
    writeRecord(root, { ...session.record, pid: dead });
    assert.equal(fs.existsSync(session.record.path), true);
    await (await testHooks()).reload();
    await eventually('the leftover worktree to be removed', () => readRecord(root, session.runId)?.endedAt, 60_000);
    assert.equal(fs.existsSync(session.record.path), false);
    assert.equal(git('branch', '--list', session.record.branch), '');
    assert.equal(
      git('worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree ')).length,
      1,
    );
  });

  it('with approvals on, the plan and the diff review of a worktree run are answered in the editor; the working tree stays as it was', async () => {
    const { controller, worktrees } = await ironbees();
    for (const key of ['approval.plan', 'approval.diffs']) await setUserSetting(key, 'always');
    const now = snapshot(workspaceRoot());
    const first = (await vscode.commands.executeCommand('ironbees.runAgentInWorktree', 'Fix the failing Calculator test', TARGET)) as
      CodingState | undefined;
    assert.ok(first);
    const atPlan = await controller.waitFor(['WAIT_PLAN_APPROVAL', 'FAILED']);
    assert.equal(atPlan.currentNode, 'WAIT_PLAN_APPROVAL');
    await vscode.commands.executeCommand('ironbees.approvePlan');
    const atDiffs = await controller.waitFor(['WAIT_DIFF_APPROVAL', 'FAILED']);
    assert.deepEqual(
      atDiffs.codeDiffs.map((d) => d.filePath),
      [SOURCE],
    );
    await vscode.commands.executeCommand('ironbees.acceptAll');
    await vscode.commands.executeCommand('ironbees.submitReview');
    const end = await worktrees.ended(first.stateId);
    assert.equal(controller.state?.currentNode, 'SUCCESS');
    assert.deepEqual({ kept: end?.branchKept, commits: end?.commits }, { kept: true, commits: 1 });
    assert.deepEqual(snapshot(workspaceRoot()), now);
    assert.match(git('show', `ironbees/${first.stateId}:${SOURCE}`), /return a \/ b;/);
  });
});
