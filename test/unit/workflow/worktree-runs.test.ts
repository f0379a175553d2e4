// The records of worktree runs are read from the workspace, which is not trusted: a record shipped in a
// repository (another machine's, or naming a folder that is not the run's own) is never acted on, and
// a killed run's leftovers are cleaned once, on a real temporary repository.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitRepo } from '../../../src/core/workspace/git-worktrees';
import {
  cleanLeftoverWorktrees,
  listRecords,
  newRecord,
  readRecord,
  worktreesDir,
  worktreeRunRecord,
  writeRecord,
} from '../../../src/core/workflow/worktree-runs';
import type { WorktreeRecord } from '../../../src/core/workflow/worktree-runs';
import { NodeProcessRunner } from '../../../src/host/node/process-runner';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

/** A pid no process has: a child that already exited. */
function deadPid(): number {
  return Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
}

describe('worktree run records', function () {
  this.timeout(60_000);
  let root: string;
  let outside: string;

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-wtrec-')));
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-wtout-')));
    fs.writeFileSync(path.join(outside, 'precious.txt'), 'keep me');
    git(root, 'init', '--quiet', '--initial-branch=main');
    git(root, 'config', 'user.email', 'p@example.com');
    git(root, 'config', 'user.name', 'P');
    fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
    git(root, 'add', '-A');
    git(root, 'commit', '--quiet', '-m', 'initial');
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it("ignores a record of another machine or naming a folder that is not the run's own", () => {
    const base = git(root, 'rev-parse', 'HEAD');
    const foreign = {
      ...newRecord({ runId: 'r-foreign', path: path.join(worktreesDir(root), 'r-foreign'), workspace: root, base }),
      machineId: 'elsewhere',
    };
    writeRecord(root, foreign);
    writeRecord(root, { ...newRecord({ runId: 'r-escape', path: outside, workspace: outside, base }), pid: deadPid() });
    writeRecord(root, {
      ...newRecord({ runId: 'r-branch', path: path.join(worktreesDir(root), 'r-branch'), workspace: root, base }),
      branch: 'main',
    });
    assert.equal(readRecord(root, 'r-foreign'), null);
    assert.equal(readRecord(root, 'r-escape'), null);
    assert.equal(readRecord(root, 'r-branch'), null);
    assert.equal(readRecord(root, '../x'), null);
    assert.deepEqual(listRecords(root), []);
  });

  it("a --parallel run's integration and phase worktrees are not worktree runs: that run writes the working tree", () => {
    const base = git(root, 'rev-parse', 'HEAD');
    const at = (runId: string): WorktreeRecord => newRecord({ runId, path: path.join(worktreesDir(root), runId), workspace: root, base });
    writeRecord(root, at('r-own'));
    writeRecord(root, { ...at('r-par'), kind: 'phase', integration: true });
    writeRecord(root, { ...at('r-par-phase-a'), kind: 'phase' });
    assert.equal(worktreeRunRecord(root, 'r-own')?.runId, 'r-own');
    assert.equal(worktreeRunRecord(root, 'r-par'), null);
    assert.equal(worktreeRunRecord(root, 'r-par-phase-a'), null);
    assert.equal(readRecord(root, 'r-par')?.runId, 'r-par');
  });

  it('cleans a killed run once: worktree removed, its empty branch deleted, a folder elsewhere untouched', async () => {
    const repo = await GitRepo.open(new NodeProcessRunner(), root);
    const base = git(root, 'rev-parse', 'HEAD');
    const dir = path.join(worktreesDir(root), 'r-killed');
    const record = { ...newRecord({ runId: 'r-killed', path: dir, workspace: dir, base }), pid: deadPid() };
    writeRecord(root, record);
    await repo.addWorktree(dir, record.branch, base);
    writeRecord(root, { ...newRecord({ runId: 'r-escape', path: outside, workspace: outside, base }), pid: deadPid() });

    const lines = await cleanLeftoverWorktrees(repo, root);
    assert.deepEqual(lines, [
      `Cleaned up after run r-killed, which stopped without ending (process ${record.pid}): its worktree ${dir} was removed.`,
      'The run committed nothing; branch ironbees/r-killed was deleted.',
    ]);
    assert.equal(fs.existsSync(dir), false);
    assert.equal(git(root, 'branch', '--list', 'ironbees/r-killed'), '');
    assert.equal(fs.readFileSync(path.join(outside, 'precious.txt'), 'utf8'), 'keep me');
    assert.deepEqual(await cleanLeftoverWorktrees(repo, root), [], 'cleaned once');
    assert.equal(readRecord(root, 'r-killed')?.branchKept, false);
  });

  it("keeps a killed run's branch when it holds commits (the run can be resumed)", async () => {
    const repo = await GitRepo.open(new NodeProcessRunner(), root);
    const base = git(root, 'rev-parse', 'HEAD');
    const dir = path.join(worktreesDir(root), 'r-work');
    const record = { ...newRecord({ runId: 'r-work', path: dir, workspace: dir, base }), pid: deadPid() };
    writeRecord(root, record);
    await repo.addWorktree(dir, record.branch, base);
    fs.writeFileSync(path.join(dir, 'a.txt'), 'changed\n');
    await repo.commitFiles(dir, 'Iteration 1', ['a.txt']);
    const lines = await cleanLeftoverWorktrees(repo, root);
    assert.equal(
      lines[1],
      "Branch ironbees/r-work keeps the run's 1 commit; bring them into your working tree with `ironbees apply r-work`.",
    );
    assert.equal(git(root, 'log', '--format=%s', 'main..ironbees/r-work'), 'Iteration 1');
    assert.equal(fs.existsSync(dir), false);
  });
});
