// Phases run at once (--parallel N) on a real temporary repository, with fake phase runtimes in
// place of the model and dotnet: independent phases run at the same time, each in its own worktree;
// a dependent phase starts from their merged result; the step's edits are the merged change; a
// merge conflict stops the run with both sides named, never resolved; nothing is left behind.

import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CodingState, ExecutionPlan, PlanPhase, WorkflowContext, WorkflowNode } from '../../../src/core/model';
import type { Host } from '../../../src/core/host';
import { AgentModeError } from '../../../src/core/errors';
import { PHASE_BLOCKED_CODE, runPhasesInParallel } from '../../../src/core/workflow/parallel-phases';
import type { OpenPhaseRuntime } from '../../../src/core/workflow/parallel-phases';
import { NodeProcessRunner } from '../../../src/host/node/process-runner';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).replace(/\n$/, '');
}

function phase(id: string, dependencies: string[]): PlanPhase {
  return { id, name: `Phase ${id.toUpperCase()}`, description: `Does ${id}`, dependencies, steps: [], affectedFiles: [] };
}

function plan(phases: PlanPhase[]): ExecutionPlan {
  return { summary: 'Three changes', steps: [], affectedFiles: [], complexity: 'LOW', phases };
}

function state(runId: string, node: WorkflowNode, files: string[], summary: string): CodingState {
  return {
    stateId: runId,
    currentNode: node,
    iterationCount: 1,
    usage: { inputTokens: 10, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
    metadata: { approvedFiles: files, coderSummary: summary },
  } as unknown as CodingState;
}

/** What a phase's fake run does in its worktree: writes its files, then ends (SUCCESS unless told otherwise). */
type PhaseScript = (workspace: string, context: WorkflowContext) => Promise<{ files: string[]; node?: WorkflowNode }>;

function fakeRuntimes(scripts: Record<string, PhaseScript>, events: string[]): OpenPhaseRuntime {
  return async () => ({
    async *execute(_request, context, _signal, runId) {
      const id = context.givenPlan?.plan.phases?.[0]?.id ?? '?';
      events.push(`start ${id}`);
      const { files, node } = await (scripts[id] as PhaseScript)(context.workspaceRoot, context);
      yield state(runId, 'VALIDATE', files, `Did ${id}.`);
      yield state(runId, node ?? 'SUCCESS', files, `Did ${id}.`);
      events.push(`end ${id}`);
    },
    dispose: async () => undefined,
  });
}

function writeIn(workspace: string, file: string, text: string): string {
  fs.writeFileSync(path.join(workspace, file), text);
  return file;
}

/** A promise and the function that resolves it: an event one phase waits for. */
function signal(): { wait: Promise<void>; fire: () => void } {
  let fire = (): void => undefined;
  const wait = new Promise<void>((resolve) => (fire = resolve));
  return { wait, fire };
}

describe('runPhasesInParallel (--parallel N) on a real repository', function () {
  this.timeout(60_000);
  let root: string;
  const host = { process: new NodeProcessRunner() } as unknown as Host;

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-parallel-')));
    git(root, 'init', '--quiet', '--initial-branch=main');
    git(root, 'config', 'user.email', 'p@example.com');
    git(root, 'config', 'user.name', 'P');
    fs.writeFileSync(path.join(root, 'shared.txt'), 'one\ntwo\nthree\n');
    git(root, 'add', '-A');
    git(root, 'commit', '--quiet', '-m', 'initial');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  function workflow(): WorkflowContext {
    return { workspaceRoot: root, maxIterations: 3, approval: { plan: 'always', diffs: 'always' }, timeouts: { buildMs: 1, testMs: 1 } };
  }

  function leftovers(): { worktrees: string[]; branches: string[] } {
    return {
      worktrees: git(root, 'worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree ')),
      branches: git(root, 'branch', '--list', 'ironbees/*').split('\n').filter(Boolean),
    };
  }

  it('runs A and B at the same time, C from their merge; the edits are the merged change and nothing is left', async () => {
    const events: string[] = [];
    const aStarted = signal();
    const bStarted = signal();
    let cSaw: string[] = [];
    let cSpec = '';
    const shown: string[] = [];
    const scripts: Record<string, PhaseScript> = {
      // Each waits for the other to have started: a scheduler that runs one at a time never gets past here.
      a: async (ws) => {
        aStarted.fire();
        await bStarted.wait;
        return { files: [writeIn(ws, 'a.txt', 'from a\n')] };
      },
      b: async (ws) => {
        bStarted.fire();
        await aStarted.wait;
        return { files: [writeIn(ws, 'b.txt', 'from b\n')] };
      },
      c: async (ws, context) => {
        cSaw = fs
          .readdirSync(ws)
          .filter((f) => f.endsWith('.txt'))
          .sort();
        cSpec = context.givenPlan?.spec ?? '';
        return { files: [writeIn(ws, 'c.txt', 'from c\n')] };
      },
    };
    const output = await runPhasesInParallel({
      host,
      open: fakeRuntimes(scripts, events),
      stateId: 'run1',
      workflow: workflow(),
      request: 'Do a, b and c',
      spec: 'The spec.',
      plan: plan([phase('c', ['a', 'b']), phase('a', []), phase('b', [])]),
      limit: 2,
      signal: new AbortController().signal,
      show: async (phases) => {
        shown.push(phases.map((p) => `${p.phaseId}:${p.status}${p.worktree ? `@${path.relative(root, p.worktree)}` : ''}`).join(' '));
      },
    });
    // Each phase shown with its worktree as it starts in it, without once it ends.
    const trees = '.ironbees/worktrees/run1-phase';
    assert.deepEqual(shown.slice(0, 2), [
      `c:pending a:running@${trees}-a b:running`,
      `c:pending a:running@${trees}-a b:running@${trees}-b`,
    ]);
    assert.deepEqual(shown.slice(2, 4).sort(), [
      `c:pending a:complete b:complete`,
      shown.includes(`c:pending a:complete b:running@${trees}-b`)
        ? `c:pending a:complete b:running@${trees}-b`
        : `c:pending a:running@${trees}-a b:complete`,
    ]);
    assert.deepEqual(shown.slice(4), [`c:running@${trees}-c a:complete b:complete`, 'c:complete a:complete b:complete']);
    assert.deepEqual(events.slice(0, 2).sort(), ['start a', 'start b']);
    assert.equal(events.indexOf('start c'), 4);
    assert.deepEqual(cSaw, ['a.txt', 'b.txt', 'shared.txt']);
    assert.match(cSpec, /^The spec\.\n\nPhases already complete[\s\S]*## Phase A \(a\)\n\nDid a\.[\s\S]*## Phase B \(b\)\n\nDid b\./);
    assert.deepEqual(
      output.edits.map((e) => [e.filePath, e.type, e.originalContent, e.newContent]),
      [
        ['a.txt', 'CREATE', null, 'from a\n'],
        ['b.txt', 'CREATE', null, 'from b\n'],
        ['c.txt', 'CREATE', null, 'from c\n'],
      ],
    );
    assert.deepEqual(
      output.phases.map((p) => [p.phaseId, p.status, p.iterationsRun]),
      [
        ['c', 'complete', 1],
        ['a', 'complete', 1],
        ['b', 'complete', 1],
      ],
    );
    assert.equal(output.usage.inputTokens, 30);
    // The person's working tree is not written here (the run's diff gate and validation do that).
    assert.equal(fs.existsSync(path.join(root, 'a.txt')), false);
    assert.deepEqual(leftovers(), { worktrees: [`worktree ${root}`], branches: [] });
    assert.deepEqual(
      fs.readdirSync(path.join(root, '.ironbees', 'worktrees')).filter((f) => !f.endsWith('.json')),
      [],
    );
  });

  it("the merged change is compiled before the person reviews it: its errors are in the step's summary", async () => {
    const checked: Array<{ files: Array<{ path: string; text: string | null }>; buildInputs: readonly string[] }> = [];
    const compiling = {
      ...host,
      codeCheck: {
        check: async (files: Array<{ path: string; text: string | null }>, options?: { buildInputs?: readonly string[] }) => {
          checked.push({ files, buildInputs: options?.buildInputs ?? [] });
          return {
            projects: ['src/Lib/Lib.csproj'],
            total: 1,
            errors: [
              {
                filePath: 'src/Lib/B.cs',
                line: 3,
                column: 9,
                code: 'CS0103',
                message: "The name 'Old' does not exist in the current context",
              },
            ],
          };
        },
      },
    } as unknown as Host;
    fs.mkdirSync(path.join(root, 'src', 'Lib'), { recursive: true });
    const write =
      (file: string, text: string): PhaseScript =>
      async (ws) => {
        fs.mkdirSync(path.dirname(path.join(ws, file)), { recursive: true });
        return { files: [writeIn(ws, file, text)] };
      };
    const output = await runPhasesInParallel({
      host: compiling,
      open: fakeRuntimes({ a: write('src/Lib/A.cs', 'class A { }\n'), b: write('src/Lib/B.cs', 'class B { int X = Old; }\n') }, []),
      stateId: 'run-compile',
      workflow: workflow(),
      request: 'Do a and b',
      spec: 'The spec.',
      plan: plan([phase('a', []), phase('b', [])]),
      limit: 2,
      signal: new AbortController().signal,
    });
    assert.deepEqual(checked, [
      {
        files: [
          { path: 'src/Lib/A.cs', text: 'class A { }\n' },
          { path: 'src/Lib/B.cs', text: 'class B { int X = Old; }\n' },
        ],
        buildInputs: [],
      },
    ]);
    assert.equal(
      output.summary,
      "Phases Phase A (a), Phase B (b), run at once in worktrees and merged.\n\nThe phases' merged change does not compile (each phase compiled on its own); 1 error(s):\n" +
        "src/Lib/B.cs:3:9: error CS0103: The name 'Old' does not exist in the current context",
    );
  });

  it('with --parallel 1 runs one phase at a time', async () => {
    const events: string[] = [];
    const write =
      (file: string): PhaseScript =>
      async (ws) => ({ files: [writeIn(ws, file, `${file}\n`)] });
    await runPhasesInParallel({
      host,
      open: fakeRuntimes({ a: write('a.txt'), b: write('b.txt'), c: write('c.txt') }, events),
      stateId: 'run2',
      workflow: workflow(),
      request: 'r',
      spec: 's',
      plan: plan([phase('a', []), phase('b', []), phase('c', ['a', 'b'])]),
      limit: 1,
      signal: new AbortController().signal,
    });
    assert.deepEqual(events, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  /** A writes line two, then B writes it (after A is merged, so B's merge is the one that conflicts); B's second attempt runs `second`. */
  function conflicting(second: PhaseScript): Record<string, PhaseScript> {
    const aDone = signal();
    return {
      a: async (ws) => {
        const file = writeIn(ws, 'shared.txt', 'one\nTWO FROM A\nthree\n');
        aDone.fire();
        return { files: [file] };
      },
      b: async (ws, context) => {
        if (context.givenPlan?.spec.includes('# Merge conflict to resolve')) return second(ws, context);
        await aDone.wait;
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { files: [writeIn(ws, 'shared.txt', 'one\nTWO FROM B\nthree\n')] };
      },
    };
  }

  const brief = [
    '# Merge conflict to resolve',
    'Phase "b" (Phase B) was done once, but its change conflicts with the phases merged before it in shared.txt. ' +
      'This workspace holds the phases merged so far with your phase merged in; in each of those files both sides are left between ' +
      "git's conflict markers (<<<<<<<, =======, >>>>>>>). Edit each so that it holds both changes, with no conflict marker left; " +
      'the rest of your phase is already here.',
    "Your first attempt's summary: Did b.",
    '--- shared.txt, as merged so far (ours):\none\nTWO FROM A\nthree\n',
    '--- shared.txt, as your first attempt left it (theirs):\none\nTWO FROM B\nthree\n',
  ].join('\n\n');

  it("a merge conflict goes to the later phase's coder with both sides; its merged edit is the step's", async () => {
    const events: string[] = [];
    let spec = '';
    let found = '';
    const run = await runPhasesInParallel({
      host,
      open: fakeRuntimes(
        conflicting(async (ws, context) => {
          spec = context.givenPlan?.spec ?? '';
          found = fs.readFileSync(path.join(ws, 'shared.txt'), 'utf8');
          return { files: [writeIn(ws, 'shared.txt', 'one\nTWO FROM A AND B\nthree\n')] };
        }),
        events,
      ),
      stateId: 'run4',
      workflow: workflow(),
      request: 'r',
      spec: 's',
      plan: plan([phase('a', []), phase('b', [])]),
      limit: 2,
      signal: new AbortController().signal,
    });
    // Its second attempt starts from A's change with B's merged in, both sides between the markers.
    assert.equal(found, 'one\n<<<<<<< HEAD\nTWO FROM A\n=======\nTWO FROM B\n>>>>>>> ironbees/run4-phase-b\nthree\n');
    assert.equal(spec, `s\n\nPhases already complete (their changes are in this workspace):\n\n## Phase A (a)\n\nDid a.\n\n${brief}`);
    // B ran twice, its second attempt after both first attempts ended.
    assert.deepEqual(events.slice(4), ['start b', 'end b']);
    assert.deepEqual([...events.slice(0, 4)].sort(), ['end a', 'end b', 'start a', 'start b']);
    assert.deepEqual(
      run.edits.map((e) => [e.filePath, e.originalContent, e.newContent]),
      [['shared.txt', 'one\ntwo\nthree\n', 'one\nTWO FROM A AND B\nthree\n']],
    );
    assert.deepEqual(
      run.phases.map((p) => [p.phaseId, p.status, p.iterationsRun]),
      [
        ['a', 'complete', 1],
        ['b', 'complete', 2],
      ],
    );
    assert.equal(fs.readFileSync(path.join(root, 'shared.txt'), 'utf8'), 'one\ntwo\nthree\n');
    assert.deepEqual(leftovers(), { worktrees: [`worktree ${root}`], branches: [] });
  });

  it('a conflict the second attempt leaves unresolved stops the run with the file and both sides named; nothing is left', async () => {
    const run = runPhasesInParallel({
      host,
      open: fakeRuntimes(
        conflicting(async () => ({ files: [] })),
        [],
      ),
      stateId: 'run3',
      workflow: workflow(),
      request: 'r',
      spec: 's',
      plan: plan([phase('a', []), phase('b', [])]),
      limit: 2,
      signal: new AbortController().signal,
    });
    await assert.rejects(run, (error: unknown) => {
      assert.ok(error instanceof AgentModeError);
      assert.equal(error.code, PHASE_BLOCKED_CODE);
      assert.equal(
        error.message,
        'Merging phase "b" (Phase B) conflicts with the phases merged before it in shared.txt; nothing was resolved and the merge was undone.' +
          '\n\n--- shared.txt, as merged so far (ours):\none\nTWO FROM A\nthree\n' +
          '\n\n--- shared.txt, as phase "b" left it (theirs):\none\nTWO FROM B\nthree\n' +
          "\n\nThe phase's coder was given the conflict with both sides; its second attempt left conflict markers in shared.txt.",
      );
      return true;
    });
    assert.equal(fs.readFileSync(path.join(root, 'shared.txt'), 'utf8'), 'one\ntwo\nthree\n');
    assert.deepEqual(leftovers(), { worktrees: [`worktree ${root}`], branches: [] });
  });

  it("keeps the person's uncommitted change in a file the phases changed; the same lines changed by both are refused", async () => {
    fs.writeFileSync(path.join(root, 'shared.txt'), 'ONE\ntwo\nthree\n');
    const run = (text: string): ReturnType<typeof runPhasesInParallel> =>
      runPhasesInParallel({
        host,
        open: fakeRuntimes({ a: async (ws) => ({ files: [writeIn(ws, 'shared.txt', text)] }) }, []),
        stateId: `run-local-${text.length}`,
        workflow: workflow(),
        request: 'r',
        spec: 's',
        plan: plan([phase('a', [])]),
        limit: 2,
        signal: new AbortController().signal,
      });
    const merged = await run('one\ntwo\nTHREE\n');
    assert.deepEqual(
      merged.edits.map((e) => [e.filePath, e.originalContent, e.newContent]),
      [['shared.txt', 'ONE\ntwo\nthree\n', 'ONE\ntwo\nTHREE\n']],
    );
    await assert.rejects(
      run('TWO LINES\nBY A\nthree\n'),
      /uncommitted changes in your working tree .* in shared\.txt; nothing was written/,
    );
    assert.equal(fs.readFileSync(path.join(root, 'shared.txt'), 'utf8'), 'ONE\ntwo\nthree\n');
  });

  it('a phase that does not succeed stops the others and names itself', async () => {
    const run = runPhasesInParallel({
      host,
      open: fakeRuntimes({ a: async () => ({ files: [], node: 'FAILED' }) }, []),
      stateId: 'run4',
      workflow: workflow(),
      request: 'r',
      spec: 's',
      plan: plan([phase('a', []), phase('b', ['a'])]),
      limit: 2,
      signal: new AbortController().signal,
    });
    await assert.rejects(
      run,
      /^AgentModeError: Phase "a" \(Phase A\) ended FAILED in its worktree; the other phases were stopped\. Its run is kept as run4-phase-a/,
    );
    assert.deepEqual(leftovers(), { worktrees: [`worktree ${root}`], branches: [] });
  });
});
