// A phase's compile check goes to the run's engine (loaded on the person's files) with every C# file
// in which the phase's worktree differs from them, as the phase sees it, and the phase's staged edits
// on top: on a real temporary repository, with a change of the person's, a merged change, a new file
// and build output that must not count.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CodeCheckResult, CodeChecker } from '../../../src/core/host';
import { GitRepo } from '../../../src/core/workspace/git-worktrees';
import { phaseCodeCheck } from '../../../src/core/workflow/phase-code-check';
import { runPhasesInParallel } from '../../../src/core/workflow/parallel-phases';
import type { OpenPhaseRuntime } from '../../../src/core/workflow/parallel-phases';
import type { Host } from '../../../src/core/host';
import type { CodingState } from '../../../src/core/model';
import { NodeProcessRunner } from '../../../src/host/node/process-runner';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@localhost', '-c', 'user.name=T', ...args], { cwd, encoding: 'utf8' }).trim();
}

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

type Asked = Array<{ path: string; text: string | null }>;

function recordingEngine(): { engine: CodeChecker; asked: Asked[]; warmUps: string[] } {
  const asked: Asked[] = [];
  const warmUps: string[] = [];
  const engine: CodeChecker = {
    check: async (files): Promise<CodeCheckResult> => {
      asked.push([...files]);
      return { projects: ['src/App/App.csproj'], errors: [], total: 0 };
    },
    warmUp: () => warmUps.push('warm'),
  };
  return { engine, asked, warmUps };
}

describe('phaseCodeCheck (the run engine answers a phase)', function () {
  this.timeout(60_000);
  let root: string;
  let main: string;
  let phase: string;
  let base: string;

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-phasecheck-')));
    main = path.join(root, 'repo');
    fs.mkdirSync(main);
    git(main, 'init', '--quiet', '--initial-branch=main');
    write(main, 'src/App/A.cs', 'class A {}\n');
    write(main, 'src/App/B.cs', 'class B {}\n');
    write(main, 'src/App/Same.cs', 'class Same {}\n');
    write(main, 'README.md', 'readme\n');
    git(main, 'add', '-A');
    git(main, 'commit', '--quiet', '-m', 'base');
    base = git(main, 'rev-parse', 'HEAD');
    // The phase's worktree: an earlier phase's merged change to B.cs, a new file, build output.
    phase = path.join(root, 'phase');
    git(main, 'worktree', 'add', '--quiet', '-b', 'ironbees/p', phase, base);
    write(phase, 'src/App/B.cs', 'class B { int merged; }\n');
    write(phase, 'src/App/New.cs', 'class New {}\n');
    git(phase, 'add', '-A');
    git(phase, 'commit', '--quiet', '-m', 'merged phase');
    write(phase, 'src/App/obj/Debug/Generated.cs', '// generated\n');
    write(phase, 'README.md', 'phase readme\n');
    // The person's own uncommitted change and a new file of theirs, which the phase does not have.
    write(main, 'src/App/A.cs', 'class A { int mine; }\n');
    write(main, 'src/App/Mine.cs', 'class Mine {}\n');
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('sends every differing C# file as the phase has it, then the staged edits', async () => {
    const repo = await GitRepo.open(new NodeProcessRunner(), main);
    const recorded = recordingEngine();
    const check = phaseCodeCheck(recorded.engine, { repo, main, phase, base });
    const staged = [
      { path: 'src/App/New.cs', text: 'class New { int staged; }\n' },
      { path: 'src/App/C.cs', text: 'class C {}\n' },
    ];
    const result = await check.check(staged);
    assert.deepEqual(result, { projects: ['src/App/App.csproj'], errors: [], total: 0 });
    assert.deepEqual(recorded.asked, [
      [
        // The person's change is put back as the phase sees it (the commit's text); their new file is absent there.
        { path: 'src/App/A.cs', text: 'class A {}\n' },
        { path: 'src/App/B.cs', text: 'class B { int merged; }\n' },
        { path: 'src/App/Mine.cs', text: null },
        // New.cs is staged: the staged text, once, after what differs.
        ...staged,
      ],
    ]);
    check.warmUp?.();
    assert.deepEqual(recorded.warmUps, ['warm']);
  });

  it('sends only the staged edits when nothing differs', async () => {
    fs.writeFileSync(path.join(main, 'src/App/A.cs'), 'class A {}\n');
    fs.rmSync(path.join(main, 'src/App/Mine.cs'));
    git(phase, 'reset', '--quiet', '--hard', base);
    const repo = await GitRepo.open(new NodeProcessRunner(), main);
    const recorded = recordingEngine();
    const staged = [{ path: 'src/App/Same.cs', text: null }];
    await phaseCodeCheck(recorded.engine, { repo, main, phase, base }).check(staged);
    assert.deepEqual(recorded.asked, [staged]);
  });
});

describe('runPhasesInParallel hands each phase the run engine', function () {
  this.timeout(60_000);
  let main: string;

  beforeEach(() => {
    main = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-phaseengine-')));
    git(main, 'init', '--quiet', '--initial-branch=main');
    write(main, 'A.cs', 'class A {}\n');
    git(main, 'add', '-A');
    git(main, 'commit', '--quiet', '-m', 'base');
  });

  afterEach(() => fs.rmSync(main, { recursive: true, force: true }));

  /** One phase that applies A.cs in its worktree, then asks its compile check about a staged B.cs. */
  async function runOnePhase(): Promise<{ asked: Asked[]; given: boolean[] }> {
    const recorded = recordingEngine();
    const given: boolean[] = [];
    const open: OpenPhaseRuntime = async (workspace, parts) => ({
      async *execute(_request, _context, _signal, runId) {
        given.push(parts?.codeCheck !== undefined);
        write(workspace, 'A.cs', 'class A { int applied; }\n');
        await parts?.codeCheck?.check([{ path: 'B.cs', text: 'class B {}\n' }]);
        const metadata = { approvedFiles: ['A.cs'], coderSummary: 'Did a.' };
        yield { stateId: runId, currentNode: 'SUCCESS', iterationCount: 1, metadata } as unknown as CodingState;
      },
      dispose: async () => undefined,
    });
    await runPhasesInParallel({
      host: { process: new NodeProcessRunner(), codeCheck: recorded.engine } as unknown as Host,
      open,
      stateId: 'run-engine',
      workflow: { workspaceRoot: main, maxIterations: 1, approval: { plan: 'never', diffs: 'never' }, timeouts: { buildMs: 1, testMs: 1 } },
      request: 'Do a',
      spec: 'The spec.',
      plan: {
        summary: 'One change',
        steps: [],
        affectedFiles: [],
        complexity: 'LOW',
        phases: [{ id: 'a', name: 'Phase A', description: 'Does a', dependencies: [], steps: [], affectedFiles: [] }],
      },
      limit: 2,
      signal: new AbortController().signal,
    });
    return { asked: recorded.asked, given };
  }

  it("answers the phase's check with the phase's applied file, then checks the merged change", async () => {
    const { asked, given } = await runOnePhase();
    assert.deepEqual(given, [true]);
    assert.deepEqual(asked, [
      [
        { path: 'A.cs', text: 'class A { int applied; }\n' },
        { path: 'B.cs', text: 'class B {}\n' },
      ],
      [{ path: 'A.cs', text: 'class A { int applied; }\n' }],
    ]);
  });

  it('gives the phase no engine with IRONBEES_PHASE_SHARED_ENGINE=0', async () => {
    process.env.IRONBEES_PHASE_SHARED_ENGINE = '0';
    try {
      const { asked, given } = await runOnePhase();
      assert.deepEqual(given, [false]);
      assert.deepEqual(asked, [[{ path: 'A.cs', text: 'class A { int applied; }\n' }]]);
    } finally {
      delete process.env.IRONBEES_PHASE_SHARED_ENGINE;
    }
  });
});
