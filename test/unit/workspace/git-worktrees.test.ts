// The worktree module on a real temporary git repository: a branch made in its own worktree, one
// commit per call, a merge into an integration branch that reports a conflict with its three sides
// and leaves the integration branch as it was, and no hook of the repository ever running.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitRepo } from '../../../src/core/workspace/git-worktrees';
import { NodeProcessRunner } from '../../../src/host/node/process-runner';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

describe('GitRepo (worktrees, commits, merges on a real repository)', function () {
  this.timeout(60_000);
  let root: string;
  let repo: GitRepo;
  const runner = new NodeProcessRunner();

  beforeEach(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-git-')));
    git(root, 'init', '--quiet', '--initial-branch=main');
    git(root, 'config', 'user.email', 'person@example.com');
    git(root, 'config', 'user.name', 'Person');
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\nthree\n');
    fs.writeFileSync(path.join(root, 'b.txt'), 'bee\n');
    git(root, 'add', '-A');
    git(root, 'commit', '--quiet', '-m', 'initial');
    // A hook that would leave a mark: the module must never run the repository's hooks.
    for (const hook of ['post-checkout', 'pre-commit', 'commit-msg', 'post-commit', 'post-merge']) {
      const file = path.join(root, '.git', 'hooks', hook);
      fs.writeFileSync(file, `#!/bin/sh\necho ${hook} >> "${path.join(root, 'hook-ran')}"\n`, { mode: 0o755 });
    }
    repo = await GitRepo.open(runner, path.join(root));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('creates a worktree on a new branch, commits there only, and removes it leaving the branch', async () => {
    const dir = path.join(root, '.ironbees', 'worktrees', 'r1');
    await repo.exclude('/.ironbees/worktrees/');
    await repo.addWorktree(dir, 'ironbees/r1', 'HEAD');
    fs.writeFileSync(path.join(dir, 'a.txt'), 'ONE\ntwo\nthree\n');
    fs.writeFileSync(path.join(dir, 'new.txt'), 'new\n');
    fs.rmSync(path.join(dir, 'b.txt'));
    fs.mkdirSync(path.join(dir, '.ironbees'));
    fs.writeFileSync(path.join(dir, '.ironbees', 'state.json'), '{}');
    // Tracked files only: the untracked new.txt and .ironbees/ stay out.
    const commit = await repo.commitTracked(dir, 'First change');
    assert.match(commit ?? '', /^[0-9a-f]{40}$/);
    assert.equal(await repo.commitTracked(dir, 'Nothing'), null, 'no tracked file changed: no commit');
    assert.equal(git(root, 'log', '--format=%s', 'main..ironbees/r1'), 'First change');
    assert.equal(git(root, 'show', '--name-status', '--format=', 'ironbees/r1'), 'M\ta.txt\nD\tb.txt');
    await repo.commitFiles(dir, 'Second change', ['new.txt']);
    assert.deepEqual(await repo.changedFiles('main', 'ironbees/r1'), [
      { status: 'M', path: 'a.txt' },
      { status: 'D', path: 'b.txt' },
      { status: 'A', path: 'new.txt' },
    ]);
    assert.deepEqual(await repo.status(), [], 'the main working tree is clean: the worktree folder is excluded');
    assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'one\ntwo\nthree\n');
    assert.deepEqual(
      (await repo.listWorktrees()).map((w) => w.branch),
      ['main', 'ironbees/r1'],
    );
    await repo.removeWorktree(dir);
    assert.equal(fs.existsSync(dir), false);
    assert.deepEqual(
      (await repo.listWorktrees()).map((w) => w.branch),
      ['main'],
    );
    assert.equal(await repo.commitsAhead('main', 'ironbees/r1'), 2);
    assert.equal(fs.existsSync(path.join(root, 'hook-ran')), false, 'no hook of the repository ran');
    const exclude = fs.readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8');
    await repo.exclude('/.ironbees/worktrees/');
    assert.equal(fs.readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8'), exclude, 'the pattern is added once');
  });

  it('commits exactly the files named: build output of a repository without a .gitignore stays out', async () => {
    const dir = path.join(root, 'wt');
    await repo.addWorktree(dir, 'ironbees/r2', 'HEAD');
    fs.writeFileSync(path.join(dir, 'a.txt'), 'changed\n');
    fs.rmSync(path.join(dir, 'b.txt'));
    fs.mkdirSync(path.join(dir, 'obj'));
    fs.writeFileSync(path.join(dir, 'obj', 'project.assets.json'), '{}');
    fs.writeFileSync(path.join(dir, 'new[1].txt'), 'literal name\n');
    assert.match((await repo.commitFiles(dir, 'Only the edits', ['a.txt', 'b.txt', 'new[1].txt'])) ?? '', /^[0-9a-f]{40}$/);
    assert.equal(git(root, 'show', '--name-status', '--format=%s', 'ironbees/r2'), 'Only the edits\n\nM\ta.txt\nD\tb.txt\nA\tnew[1].txt');
    assert.equal(await repo.commitFiles(dir, 'Again', ['a.txt']), null, 'nothing new in the named files: no commit');
    assert.equal(await repo.commitFiles(dir, 'None', []), null);
  });

  it('merges a clean branch into an integration branch with a merge commit', async () => {
    const integration = path.join(root, 'wt-int');
    const phase = path.join(root, 'wt-p1');
    await repo.addWorktree(integration, 'ironbees/int', 'main');
    await repo.addWorktree(phase, 'ironbees/p1', 'main');
    fs.writeFileSync(path.join(phase, 'b.txt'), 'bee\nbuzz\n');
    await repo.commitTracked(phase, 'Phase 1');
    const result = await repo.merge(integration, 'ironbees/p1', 'Merge phase 1');
    assert.equal(result.merged, true);
    assert.equal(git(integration, 'log', '-1', '--format=%s%n%P', 'HEAD').split('\n')[0], 'Merge phase 1');
    assert.equal(git(integration, 'log', '-1', '--format=%P', 'HEAD').split(' ').length, 2, 'a merge commit');
    assert.equal(fs.readFileSync(path.join(integration, 'b.txt'), 'utf8'), 'bee\nbuzz\n');
    assert.equal(fs.existsSync(path.join(root, 'hook-ran')), false, 'no hook of the repository ran');
  });

  it('reports a conflict with base, ours and theirs, and leaves the integration branch untouched', async () => {
    const integration = path.join(root, 'wt-int');
    const p1 = path.join(root, 'wt-p1');
    const p2 = path.join(root, 'wt-p2');
    await repo.addWorktree(integration, 'ironbees/int', 'main');
    await repo.addWorktree(p1, 'ironbees/p1', 'main');
    await repo.addWorktree(p2, 'ironbees/p2', 'main');
    fs.writeFileSync(path.join(p1, 'a.txt'), 'one\nTWO from p1\nthree\n');
    await repo.commitTracked(p1, 'Phase 1');
    fs.writeFileSync(path.join(p2, 'a.txt'), 'one\ntwo from p2\nthree\n');
    fs.rmSync(path.join(p2, 'b.txt'));
    fs.writeFileSync(path.join(p2, 'c.txt'), 'sea\n');
    await repo.commitFiles(p2, 'Phase 2', ['a.txt', 'b.txt', 'c.txt']);
    assert.equal((await repo.merge(integration, 'ironbees/p1', 'Merge phase 1')).merged, true);
    const head = git(integration, 'rev-parse', 'HEAD');

    const result = await repo.merge(integration, 'ironbees/p2', 'Merge phase 2');
    assert.deepEqual(result, {
      merged: false,
      conflicts: [{ path: 'a.txt', base: 'one\ntwo\nthree\n', ours: 'one\nTWO from p1\nthree\n', theirs: 'one\ntwo from p2\nthree\n' }],
    });
    assert.equal(git(integration, 'rev-parse', 'HEAD'), head, 'the integration branch did not move');
    assert.equal(git(integration, 'status', '--porcelain'), '', 'the merge was undone: no half-merged file is left');
    assert.equal(fs.readFileSync(path.join(integration, 'a.txt'), 'utf8'), 'one\nTWO from p1\nthree\n');
    assert.equal(fs.existsSync(path.join(integration, 'c.txt')), false);
  });

  it('reports a delete against a change as a conflict with the deleted side null', async () => {
    const integration = path.join(root, 'wt-int');
    const p1 = path.join(root, 'wt-p1');
    const p2 = path.join(root, 'wt-p2');
    await repo.addWorktree(integration, 'ironbees/int', 'main');
    await repo.addWorktree(p1, 'ironbees/p1', 'main');
    await repo.addWorktree(p2, 'ironbees/p2', 'main');
    fs.writeFileSync(path.join(p1, 'b.txt'), 'bee changed\n');
    await repo.commitTracked(p1, 'Phase 1');
    fs.rmSync(path.join(p2, 'b.txt'));
    await repo.commitTracked(p2, 'Phase 2');
    await repo.merge(integration, 'ironbees/p1', 'Merge phase 1');
    const result = await repo.merge(integration, 'ironbees/p2', 'Merge phase 2');
    assert.deepEqual(result, { merged: false, conflicts: [{ path: 'b.txt', base: 'bee\n', ours: 'bee changed\n', theirs: null }] });
  });

  it('refuses a folder outside any repository with a configuration error', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-nogit-'));
    try {
      await assert.rejects(GitRepo.open(runner, outside), /is not in a git repository/);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
