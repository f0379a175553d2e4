// A phase's worktree is removed only once its runtime has stopped (its build servers may still be
// writing there), while its merge does not wait for that stop: on a real temporary repository.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitRepo } from '../../../src/core/workspace/git-worktrees';
import { ParallelWorktrees } from '../../../src/core/workflow/parallel-worktrees';
import { NodeProcessRunner } from '../../../src/host/node/process-runner';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=p@example.com', '-c', 'user.name=P', ...args], { cwd, encoding: 'utf8' }).trim();
}

describe('ParallelWorktrees: a phase tree ends after its runtime', function () {
  this.timeout(60_000);
  let root: string;

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-ptrees-')));
    git(root, 'init', '--quiet', '--initial-branch=main');
    fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
    git(root, 'add', '-A');
    git(root, 'commit', '--quiet', '-m', 'initial');
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('merges while the runtime stops, and removes the worktree only after it stopped', async () => {
    const repo = await GitRepo.open(new NodeProcessRunner(), root);
    const trees = await ParallelWorktrees.create(repo, root, 'run-1');
    const tree = await trees.addPhase('a');
    fs.writeFileSync(path.join(tree.workspace, 'a.txt'), 'changed\n');
    git(tree.workspace, 'commit', '--quiet', '-am', 'phase a');
    let stopped = (): void => undefined;
    trees.endsAfter(tree, new Promise<void>((resolve) => (stopped = resolve)));
    const merged = await trees.merge(tree, 'Merge phase a: A');
    assert.equal(merged.merged, true);
    assert.equal(fs.readFileSync(path.join(trees.integration.workspace, 'a.txt'), 'utf8'), 'changed\n');
    const closing = trees.close(tree);
    // Another git step queued meanwhile is not held by the stopping runtime either.
    assert.equal(await repo.commitOf(trees.integration.record.branch), merged.merged ? merged.commit : null);
    // A git step queued after the close runs first: the removal has not even queued yet.
    await trees.serial(async () => undefined);
    assert.equal(fs.existsSync(tree.record.path), true, 'removed while its runtime was still stopping');
    stopped();
    await closing;
    assert.equal(fs.existsSync(tree.record.path), false);
    await trees.closeAll();
    assert.deepEqual(git(root, 'branch', '--list', 'ironbees/*'), '');
  });
});
