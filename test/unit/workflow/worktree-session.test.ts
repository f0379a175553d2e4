// The shared path of a run in a worktree (the CLI's `run --worktree` and the editor's "Run Agent in a
// Worktree" both go through it), on a real temporary repository: the person's working tree, local
// changes included, is byte-identical after the run; the branch holds exactly the iteration's commit;
// applying writes the branch's bytes into the working tree with nothing staged.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CodingState, WorkflowNode } from '../../../src/core/model';
import { GitRepo } from '../../../src/core/workspace/git-worktrees';
import { applyFile, planApply } from '../../../src/core/workflow/worktree-apply';
import { closeWorktreeSession, openWorktreeSession } from '../../../src/core/workflow/worktree-session';
import { NodeProcessRunner } from '../../../src/host/node/process-runner';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).replace(/\n$/, '');
}

/** Every file of the working tree but .git and .ironbees, path → bytes. */
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

function state(runId: string, node: WorkflowNode, approvedFiles: string[], coderSummary: string): CodingState {
  return { stateId: runId, currentNode: node, iterationCount: 1, metadata: { approvedFiles, coderSummary } } as unknown as CodingState;
}

async function* states(list: CodingState[]): AsyncIterable<CodingState> {
  for (const s of list) yield s;
}

describe('worktree session (the path the CLI and the editor share)', function () {
  this.timeout(60_000);
  let root: string;

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-wtsession-')));
    git(root, 'init', '--quiet', '--initial-branch=main');
    git(root, 'config', 'user.email', 'p@example.com');
    git(root, 'config', 'user.name', 'P');
    fs.mkdirSync(path.join(root, 'src'));
    fs.writeFileSync(path.join(root, 'src', 'Calc.cs'), 'return a - b;\r\n');
    fs.writeFileSync(path.join(root, 'notes.txt'), 'committed\n');
    git(root, 'add', '-A');
    git(root, 'commit', '--quiet', '-m', 'initial');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('leaves the working tree byte-identical, commits on ironbees/<runId>, and applies unstaged', async () => {
    // The person's uncommitted change, which the run must neither see nor touch.
    fs.writeFileSync(path.join(root, 'notes.txt'), 'my local edit\n');
    const head = git(root, 'rev-parse', 'HEAD');
    const before = snapshot(root);
    const statusBefore = git(root, 'status', '--porcelain', '--untracked-files=no');
    const repo = await GitRepo.open(new NodeProcessRunner(), root);

    const session = await openWorktreeSession(repo, root);
    assert.equal(session.record.branch, `ironbees/${session.runId}`);
    assert.equal(session.workspace, path.join(root, '.ironbees', 'worktrees', session.runId));
    assert.equal(session.localChanges, true);
    assert.equal(fs.readFileSync(path.join(session.workspace, 'notes.txt'), 'utf8'), 'committed\n');
    // The run writes its edit in the worktree during VALIDATE; leaving VALIDATE commits it.
    fs.writeFileSync(path.join(session.workspace, 'src', 'Calc.cs'), 'return a / b;\r\n');
    fs.mkdirSync(path.join(session.workspace, 'obj'));
    fs.writeFileSync(path.join(session.workspace, 'obj', 'build.txt'), 'output');
    const seen: WorkflowNode[] = [];
    for await (const s of session.commits.states(
      states([
        state(session.runId, 'VALIDATE', ['src/Calc.cs'], 'Divide now divides.'),
        state(session.runId, 'SUCCESS', ['src/Calc.cs'], 'Divide now divides.'),
      ]),
    ))
      seen.push(s.currentNode);
    assert.deepEqual(seen, ['VALIDATE', 'SUCCESS']);
    const end = await closeWorktreeSession(repo, root, session);

    assert.deepEqual({ kept: end.branchKept, commits: end.commits }, { kept: true, commits: 1 });
    assert.deepEqual(snapshot(root), before);
    assert.equal(git(root, 'rev-parse', 'HEAD'), head);
    assert.equal(git(root, 'status', '--porcelain', '--untracked-files=no'), statusBefore);
    assert.equal(git(root, 'log', '--format=%s', `main..${session.record.branch}`), 'Divide now divides.');
    assert.equal(git(root, 'diff', '--name-only', `main..${session.record.branch}`), 'src/Calc.cs');
    assert.equal(
      git(root, 'worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree ')).length,
      1,
    );
    assert.equal(fs.existsSync(session.record.path), false);

    const plan = await planApply(repo, root, session.runId);
    assert.deepEqual(plan, {
      branch: session.record.branch,
      base: head,
      files: [{ path: 'src/Calc.cs', status: 'M' }],
      changedHere: [],
    });
    for (const file of plan.files) await applyFile(repo, plan.branch, file);
    assert.equal(fs.readFileSync(path.join(root, 'src', 'Calc.cs'), 'utf8'), 'return a / b;\r\n');
    assert.equal(fs.readFileSync(path.join(root, 'notes.txt'), 'utf8'), 'my local edit\n');
    assert.equal(git(root, 'diff', '--cached', '--name-only'), '');
    assert.equal(git(root, 'status', '--porcelain', '--untracked-files=no'), ' M notes.txt\n M src/Calc.cs');
  });

  it('names a file with local changes the run did not start from, and deletes no branch of a run that committed', async () => {
    const repo = await GitRepo.open(new NodeProcessRunner(), root);
    const session = await openWorktreeSession(repo, root);
    fs.writeFileSync(path.join(session.workspace, 'src', 'Calc.cs'), 'return a / b;\r\n');
    for await (const _ of session.commits.states(states([state(session.runId, 'VALIDATE', ['src/Calc.cs'], 'Fix.')]))) void _;
    // Stopped at VALIDATE (resumable): what was applied is committed by the close and the branch kept.
    const end = await closeWorktreeSession(repo, root, session);
    assert.deepEqual({ kept: end.branchKept, commits: end.commits }, { kept: true, commits: 1 });
    fs.writeFileSync(path.join(root, 'src', 'Calc.cs'), 'mine\n');
    const plan = await planApply(repo, root, session.runId);
    assert.deepEqual(plan.changedHere, ['src/Calc.cs']);
  });
});
