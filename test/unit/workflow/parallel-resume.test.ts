// A `--parallel` run killed while its phases worked, on a real temporary repository with fake phase
// runtimes: the next command cleans its worktrees but keeps the integration branch (the run can be
// resumed), and the resumed step goes on from it: the phases merged and shown complete are not run
// again, the rest run from the branch as merged; a merge the run had not shown complete is set back
// and its phase runs again, said in a line; nothing is left at the end.

import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CodingState, ExecutionPlan, PhaseState, PlanPhase } from '../../../src/core/model';
import type { Host } from '../../../src/core/host';
import { GitRepo } from '../../../src/core/workspace/git-worktrees';
import { runPhasesInParallel } from '../../../src/core/workflow/parallel-phases';
import type { OpenPhaseRuntime } from '../../../src/core/workflow/parallel-phases';
import { ParallelWorktrees } from '../../../src/core/workflow/parallel-worktrees';
import { cleanLeftoverWorktrees, listRecords, needsCleaning, readRecord, writeRecord } from '../../../src/core/workflow/worktree-runs';
import { NodeProcessRunner } from '../../../src/host/node/process-runner';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).replace(/\n$/, '');
}

function deadPid(): number {
  return Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
}

function phase(id: string, dependencies: string[]): PlanPhase {
  return { id, name: `Phase ${id.toUpperCase()}`, description: `Does ${id}`, dependencies, steps: [], affectedFiles: [] };
}

const PLAN: ExecutionPlan = {
  summary: 'Three changes',
  steps: [],
  affectedFiles: [],
  complexity: 'LOW',
  phases: [phase('a', []), phase('b', []), phase('c', ['a', 'b'])],
};

function shown(id: string, status: PhaseState['status'], more: Partial<PhaseState> = {}): PhaseState {
  return {
    phaseId: id,
    name: `Phase ${id.toUpperCase()}`,
    status,
    iterationsRun: status === 'pending' ? 0 : 1,
    maxIterations: 3,
    startedAt: status === 'pending' ? null : '2026-01-01T00:00:00.000Z',
    endedAt: status === 'complete' ? '2026-01-01T00:01:00.000Z' : null,
    ...more,
  };
}

/** Each phase's fake run writes `<id>.txt` in its worktree and succeeds; `events` says which ran. */
function fakeRuntimes(events: string[]): OpenPhaseRuntime {
  return async () => ({
    async *execute(_request, context, _signal, runId) {
      const id = context.givenPlan?.plan.phases?.[0]?.id ?? '?';
      events.push(id);
      fs.writeFileSync(path.join(context.workspaceRoot, `${id}.txt`), `from ${id}\n`);
      const state = (node: string) =>
        ({
          stateId: runId,
          currentNode: node,
          iterationCount: 1,
          usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
          metadata: { approvedFiles: [`${id}.txt`], coderSummary: `Did ${id} again.` },
        }) as unknown as CodingState;
      yield state('VALIDATE');
      yield state('SUCCESS');
    },
    dispose: async () => undefined,
  });
}

describe('a killed --parallel run resumed from its integration branch', function () {
  this.timeout(60_000);
  let root: string;
  let repo: GitRepo;
  const host = { process: new NodeProcessRunner(), logger: { warn: () => undefined } } as unknown as Host;

  beforeEach(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-presume-')));
    git(root, 'init', '--quiet', '--initial-branch=main');
    git(root, 'config', 'user.email', 'p@example.com');
    git(root, 'config', 'user.name', 'P');
    fs.writeFileSync(path.join(root, 'shared.txt'), 'one\n');
    git(root, 'add', '-A');
    git(root, 'commit', '--quiet', '-m', 'initial');
    repo = await GitRepo.open(new NodeProcessRunner(), root);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  /** The run's parent state as the kill left it: at `node`. */
  function parentAt(node: string): void {
    const dir = path.join(root, '.ironbees', 'runs', 'run9');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'state.json'), JSON.stringify({ codingState: { currentNode: node } }));
  }

  /** An attempt killed after merging `merged` (each committing `<id>.txt`) while `running` worked; `saved` as it last showed. */
  async function killedAttempt(merged: string[], running: string, saved: PhaseState[]): Promise<void> {
    const trees = await ParallelWorktrees.create(repo, root, 'run9');
    for (const id of merged) {
      const tree = await trees.addPhase(id);
      fs.writeFileSync(path.join(tree.workspace, `${id}.txt`), `from ${id}\n`);
      git(tree.workspace, 'add', '-A');
      git(tree.workspace, 'commit', '--quiet', '-m', `did ${id}`);
      assert.equal((await trees.merge(tree, `Merge phase ${id}: Phase ${id.toUpperCase()}`)).merged, true);
      await trees.close(tree);
    }
    await trees.addPhase(running);
    trees.savePhases(saved);
    for (const id of ['run9', `run9-phase-${running}`]) writeRecord(root, { ...readRecord(root, id)!, pid: deadPid() });
    parentAt('CODE');
  }

  function resume(events: string[], said: string[]) {
    return runPhasesInParallel({
      host,
      open: fakeRuntimes(events),
      stateId: 'run9',
      workflow: {
        workspaceRoot: root,
        maxIterations: 3,
        approval: { plan: 'always', diffs: 'always' },
        timeouts: { buildMs: 1, testMs: 1 },
      },
      request: 'r',
      spec: 's',
      plan: PLAN,
      limit: 2,
      signal: new AbortController().signal,
      say: (line) => said.push(line),
    });
  }

  function branches(): string[] {
    return git(root, 'branch', '--list', 'ironbees/*')
      .split('\n')
      .filter(Boolean)
      .map((b) => b.trim());
  }

  it('keeps the branch for the resume, which runs only the phases not merged; nothing is left after', async () => {
    const handoff = 'Did a.\nFiles changed: a.txt';
    await killedAttempt(['a'], 'b', [
      shown('a', 'complete', { handoff }),
      shown('b', 'running', { worktree: '/w' }),
      shown('c', 'pending'),
    ]);
    const lines = await cleanLeftoverWorktrees(repo, root);
    assert.deepEqual(lines, [
      `Cleaned up after run run9-phase-b, which stopped without ending (process ${readRecord(root, 'run9-phase-b')!.pid}): its worktree ${root}/.ironbees/worktrees/run9-phase-b was removed.`,
      'Branch ironbees/run9-phase-b was deleted: the run stopped without ending.',
      `Cleaned up after run run9, which stopped without ending (process ${readRecord(root, 'run9')!.pid}): its worktree ${root}/.ironbees/worktrees/run9 was removed.`,
      'Branch ironbees/run9 keeps the phases merged before the run stopped; `ironbees resume run9` goes on from them.',
    ]);
    assert.deepEqual(branches(), ['ironbees/run9']);
    assert.equal(
      listRecords(root).some((record) => needsCleaning(root, record)),
      false,
    );

    const events: string[] = [];
    const said: string[] = [];
    const output = await resume(events, said);
    assert.deepEqual(events, ['b', 'c']);
    assert.ok(said.includes('phase Phase A (a): merged on ironbees/run9 before the run stopped; it is not run again'), said.join('\n'));
    assert.deepEqual(
      output.phases.map((p) => [p.phaseId, p.status, p.iterationsRun, p.handoff]),
      [
        ['a', 'complete', 1, handoff],
        ['b', 'complete', 1, 'Did b again.'],
        ['c', 'complete', 1, 'Did c again.'],
      ],
    );
    assert.deepEqual(
      output.edits.map((e) => [e.filePath, e.newContent]),
      [
        ['a.txt', 'from a\n'],
        ['b.txt', 'from b\n'],
        ['c.txt', 'from c\n'],
      ],
    );
    assert.deepEqual(branches(), []);
    assert.deepEqual(
      git(root, 'worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree ')),
      [`worktree ${root}`],
    );
  });

  it('a merge the run had not shown complete is set back and its phase runs again; so does one shown complete but not merged', async () => {
    await killedAttempt(['a', 'b'], 'c', [shown('a', 'complete'), shown('b', 'running'), shown('c', 'complete')]);
    await cleanLeftoverWorktrees(repo, root);
    const events: string[] = [];
    const said: string[] = [];
    const output = await resume(events, said);
    assert.deepEqual(events, ['b', 'c']);
    assert.deepEqual(said.slice(0, 3), [
      'phase Phase B (b) on ironbees/run9 is merged, but the run had not shown it complete; the branch is set back to before it and it runs again',
      'phase Phase C (c): shown complete, but its merge is not on ironbees/run9; it runs again',
      'phase Phase A (a): merged on ironbees/run9 before the run stopped; it is not run again',
    ]);
    assert.deepEqual(
      output.phases.map((p) => [p.phaseId, p.status]),
      [
        ['a', 'complete'],
        ['b', 'complete'],
        ['c', 'complete'],
      ],
    );
    assert.deepEqual(
      output.edits.map((e) => [e.filePath, e.newContent]),
      [
        ['a.txt', 'from a\n'],
        ['b.txt', 'from b\n'],
        ['c.txt', 'from c\n'],
      ],
    );
    assert.deepEqual(branches(), []);
  });

  it('a kept branch whose run ended without resuming is deleted by the next command', async () => {
    await killedAttempt(['a'], 'b', [shown('a', 'complete'), shown('b', 'running'), shown('c', 'pending')]);
    await cleanLeftoverWorktrees(repo, root);
    assert.deepEqual(branches(), ['ironbees/run9']);
    parentAt('CANCELLED');
    assert.equal(needsCleaning(root, readRecord(root, 'run9')!), true);
    assert.deepEqual(await cleanLeftoverWorktrees(repo, root), [
      'Deleted branch ironbees/run9: run run9 ended without going on from the phases merged on it.',
    ]);
    assert.deepEqual(branches(), []);
    assert.equal(needsCleaning(root, readRecord(root, 'run9')!), false);
  });

  it('a run killed before any phase was merged keeps no branch, and its resume starts every phase', async () => {
    await killedAttempt([], 'a', [shown('a', 'running'), shown('b', 'pending'), shown('c', 'pending')]);
    const lines = await cleanLeftoverWorktrees(repo, root);
    assert.equal(lines.at(-1), 'The run committed nothing; branch ironbees/run9 was deleted.');
    assert.deepEqual(branches(), []);
    const events: string[] = [];
    const output = await resume(events, []);
    assert.deepEqual(events.slice(0, 2).sort(), ['a', 'b']);
    assert.equal(events[2], 'c');
    assert.deepEqual(
      output.phases.map((p) => [p.phaseId, p.status]),
      [
        ['a', 'complete'],
        ['b', 'complete'],
        ['c', 'complete'],
      ],
    );
  });
});
