import { strict as assert } from 'node:assert';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/app';
import type { CliDeps, RuntimeOptions } from '../../../src/cli/app';
import { ConfigurationError } from '../../../src/core/errors';
import type { ApprovalDecision, CodingState } from '../../../src/core/model';
import { RunStore, STATE_SCHEMA_VERSION } from '../../../src/core/workflow/store';
import { version } from '../../../package.json';
import { CREATE_EDIT, MODIFY_EDIT, PLAN, makeState } from './fixtures';
import { FakeOrchestrator, fsHost, testIo, working } from './fakes';
import type { Script } from './fakes';

const HANDOFF = '/ws/.ironbees/runs/run-1/HANDOFF.md';

/** Plan gate → diff gate → validation; `passes` false escalates, and the person's answer there decides. */
function scriptedRun(passes: boolean): Script {
  return async function* (run) {
    yield makeState({ currentNode: 'INIT' });
    yield makeState({ currentNode: 'PLAN' });
    yield makeState({ currentNode: 'WAIT_PLAN_APPROVAL', plan: PLAN });
    const planDecision = await run.decision();
    if (planDecision.type !== 'APPROVE') throw new Error(`unexpected ${planDecision.type}`);
    yield makeState({ currentNode: 'CODE', plan: PLAN, iterationCount: 1 });
    yield makeState({ currentNode: 'WAIT_DIFF_APPROVAL', plan: PLAN, iterationCount: 1, codeDiffs: [MODIFY_EDIT, CREATE_EDIT] });
    await run.decision();
    yield makeState({ currentNode: 'VALIDATE', plan: PLAN, iterationCount: 1 });
    if (passes) {
      yield makeState({ currentNode: 'SUCCESS', plan: PLAN, iterationCount: 1 });
      return;
    }
    yield makeState({ currentNode: 'ESCALATE', plan: PLAN, iterationCount: 1, maxIterations: 1 });
    yield makeState({ currentNode: 'WAIT_HUMAN', plan: PLAN, iterationCount: 1, maxIterations: 1, metadata: { handoffPath: HANDOFF } });
    const human = await run.decision();
    if (human.type === 'STOP') yield makeState({ currentNode: 'CANCELLED', iterationCount: 1, maxIterations: 1 });
    else yield makeState({ currentNode: 'SUCCESS', iterationCount: 2, maxIterations: 4 });
  };
}

describe('runCli', () => {
  let workspace: string;
  let runtimeCalls: RuntimeOptions[];

  beforeEach(async () => {
    workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-cli-'));
    runtimeCalls = [];
  });
  afterEach(async () => {
    await fs.rm(workspace, { recursive: true, force: true });
  });

  function depsWith(orchestrator: FakeOrchestrator): Partial<CliDeps> {
    return {
      createRuntime: async (options) => {
        runtimeCalls.push(options);
        return { host: fsHost(options.workspaceRoot), orchestrator };
      },
      createHost: (root) => fsHost(root),
    };
  }

  describe('usage', () => {
    it('prints help and the version with exit 0', async () => {
      const help = testIo(null, workspace);
      assert.equal(await runCli(['--help'], help), 0);
      assert.match(help.out(), /ironbees run "<request>"/);
      assert.ok(help.out().includes('3 escalated (needs a person) · 4 stopped by you at an escalation · 130 interrupted'), help.out());
      const ver = testIo(null, workspace);
      assert.equal(await runCli(['--version'], ver), 0);
      assert.equal(ver.out().trim(), version);
    });

    it('refuses an unknown command or flag with exit 2 and the usage on stderr', async () => {
      const io = testIo(null, workspace);
      assert.equal(await runCli(['launch'], io), 2);
      assert.match(io.err(), /Unknown command "launch"/);
      assert.match(io.err(), /Usage:/);
      assert.equal(io.out(), '');
      const flag = testIo(null, workspace);
      assert.equal(await runCli(['run', 'x', '--fast'], flag), 2);
      assert.match(flag.err(), /--fast/);
      assert.match(flag.err(), /ironbees run "<request>"/);
    });

    it('refuses a missing workspace or a target outside it before building anything', async () => {
      const io = testIo(null, workspace);
      const orchestrator = new FakeOrchestrator(scriptedRun(true));
      assert.equal(await runCli(['run', 'x', '-w', path.join(workspace, 'nope')], io, depsWith(orchestrator)), 2);
      assert.match(io.err(), /does not exist/);
      const outside = testIo(null, workspace);
      assert.equal(await runCli(['run', 'x', '--target', '../other.sln'], outside, depsWith(orchestrator)), 2);
      assert.match(outside.err(), /not inside the workspace/);
      const missing = testIo(null, workspace);
      assert.equal(await runCli(['run', 'x', '--target', 'App.sln'], missing, depsWith(orchestrator)), 2);
      assert.match(missing.err(), /App\.sln does not exist/);
      assert.equal(runtimeCalls.length, 0);
    });

    it('maps a configuration error (no key, no dotnet) to exit 2', async () => {
      const io = testIo(null, workspace);
      const deps: Partial<CliDeps> = {
        createRuntime: async () => {
          throw new ConfigurationError('No Anthropic API key: set ANTHROPIC_API_KEY');
        },
      };
      assert.equal(await runCli(['run', 'x'], io, deps), 2);
      assert.match(io.err(), /No Anthropic API key/);
    });
  });

  describe('run', () => {
    it('--yes --json: approves both gates, prints only JSON states on stdout, exits 0', async () => {
      await fs.writeFile(path.join(workspace, 'App.sln'), '');
      const orchestrator = new FakeOrchestrator(scriptedRun(true));
      const io = testIo(null, workspace);
      const code = await runCli(
        ['run', 'Fix it', '--yes', '--json', '--max-iterations', '3', '--diff-approval', 'first', '--target', 'App.sln', '--model', 'm1'],
        io,
        depsWith(orchestrator),
      );
      assert.equal(code, 0);
      const states = io
        .out()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as CodingState);
      assert.deepEqual(
        states.map((s) => s.currentNode),
        ['INIT', 'PLAN', 'WAIT_PLAN_APPROVAL', 'CODE', 'WAIT_DIFF_APPROVAL', 'VALIDATE', 'SUCCESS'],
      );
      // The plan's approval is a standing one: the plan's knownFailures excuse nothing.
      assert.deepEqual(orchestrator.decisions, [{ type: 'APPROVE', unattended: true }, { type: 'APPROVE' }]);
      assert.equal(orchestrator.request, 'Fix it');
      assert.deepEqual(orchestrator.context, {
        workspaceRoot: workspace,
        maxIterations: 3,
        model: 'm1',
        approval: { plan: 'always', diffs: 'first' },
        timeouts: { buildMs: 600_000, testMs: 600_000 },
        target: 'App.sln',
        review: { mode: 'required', threshold: 8 },
      });
      assert.match(io.err(), /\[1\/5\] VALIDATE building and testing…/);
      assert.equal(runtimeCalls[0].demo, false);
    });

    it("--yes --accept-known-failures: the plan is approved as the person's own (its knownFailures count)", async () => {
      await fs.writeFile(path.join(workspace, 'App.sln'), '');
      const orchestrator = new FakeOrchestrator(scriptedRun(true));
      const code = await runCli(
        ['run', 'Fix it', '--yes', '--accept-known-failures', '--target', 'App.sln'],
        testIo(null, workspace),
        depsWith(orchestrator),
      );
      assert.equal(code, 0);
      assert.deepEqual(orchestrator.decisions, [{ type: 'APPROVE' }, { type: 'APPROVE' }]);
    });

    it('--yes answers a gate before printing it, so the next step starts at once; the lines keep their order', async () => {
      await fs.writeFile(path.join(workspace, 'App.sln'), '');
      const io = testIo(null, workspace);
      const printedAtApproval: string[][] = [];
      const orchestrator = new (class extends FakeOrchestrator {
        override async approve(stateId: string, decision: ApprovalDecision): Promise<void> {
          printedAtApproval.push(
            io
              .out()
              .trimEnd()
              .split('\n')
              .map((line) => (JSON.parse(line) as CodingState).currentNode),
          );
          await super.approve(stateId, decision);
        }
      })(scriptedRun(true));
      assert.equal(await runCli(['run', 'Fix it', '--yes', '--json', '--target', 'App.sln'], io, depsWith(orchestrator)), 0);
      assert.deepEqual(printedAtApproval, [
        ['INIT', 'PLAN'],
        ['INIT', 'PLAN', 'WAIT_PLAN_APPROVAL', 'CODE'],
      ]);
      const states = io
        .out()
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as CodingState).currentNode);
      assert.deepEqual(states, ['INIT', 'PLAN', 'WAIT_PLAN_APPROVAL', 'CODE', 'WAIT_DIFF_APPROVAL', 'VALIDATE', 'SUCCESS']);
    });

    it('opens stdin only for a question: a run with --yes never reads it, one that asks does', async () => {
      await fs.writeFile(path.join(workspace, 'App.sln'), '');
      const reads = { yes: 0, asked: 0 };
      const counting = (io: ReturnType<typeof testIo>, key: keyof typeof reads): ReturnType<typeof testIo> => {
        const stdin = io.stdin;
        return Object.defineProperty(io, 'stdin', { get: () => ((reads[key] += 1), stdin) });
      };
      const unattended = counting(testIo(null, workspace), 'yes');
      assert.equal(
        await runCli(['run', 'Fix it', '--yes', '--target', 'App.sln'], unattended, depsWith(new FakeOrchestrator(scriptedRun(true)))),
        0,
      );
      const asked = counting(testIo(['a', 'a'], workspace), 'asked');
      assert.equal(await runCli(['run', 'Fix it', '--target', 'App.sln'], asked, depsWith(new FakeOrchestrator(scriptedRun(true)))), 0);
      assert.deepEqual(reads, { yes: 0, asked: 2 });
    });

    it('--yes at an escalation ends with exit 3, the run left waiting with its hand-off', async () => {
      const orchestrator = new FakeOrchestrator(scriptedRun(false));
      const io = testIo(null, workspace);
      assert.equal(await runCli(['run', 'Fix it', '--yes'], io, depsWith(orchestrator)), 3);
      assert.ok(!orchestrator.decisions.some((d) => d.type === 'STOP' || d.type === 'CONTINUE'));
      assert.match(io.err(), new RegExp(`read ${HANDOFF.replace(/\./g, '\\.')}`));
      assert.match(io.err(), /ironbees resume run-1/);
      assert.equal(io.out(), '');
    });

    it('asks the gates on a piped stdin: approve the plan, select files', async () => {
      const orchestrator = new FakeOrchestrator(scriptedRun(true));
      const io = testIo(['a', 's', 'y', 'n', 'not this one'], workspace);
      assert.equal(await runCli(['run', 'Fix it'], io, depsWith(orchestrator)), 0);
      assert.deepEqual(orchestrator.decisions, [
        { type: 'APPROVE' },
        {
          type: 'APPROVE',
          files: [
            { filePath: 'src/Calc.cs', accepted: true },
            { filePath: 'tests/AddTests.cs', accepted: false, reason: 'not this one' },
          ],
        },
      ]);
      assert.match(io.err(), /Plan: \[a\]pprove/);
      assert.equal(io.out(), '', 'without --json, stdout stays empty: progress and prompts go to stderr');
      assert.match(io.err(), /\+ {2}int Add\(int a, int b\) => a \+ b;/);
    });

    it('stop at the escalation exits 4 (not 3: nothing is left waiting); continue goes on with guidance', async () => {
      const stop = new FakeOrchestrator(scriptedRun(false));
      const io = testIo(['a', 'a', 's'], workspace);
      assert.equal(await runCli(['run', 'Fix it'], io, depsWith(stop)), 4);
      assert.deepEqual(stop.decisions.at(-1), { type: 'STOP' });
      assert.match(io.err(), /stopped at the escalation/);

      const go = new FakeOrchestrator(scriptedRun(false));
      const again = testIo(['a', 'a', 'c', 'Mind the rounding', '3'], workspace);
      assert.equal(await runCli(['run', 'Fix it'], again, depsWith(go)), 0);
      assert.deepEqual(go.decisions.at(-1), { type: 'CONTINUE', guidance: 'Mind the rounding', additionalIterations: 3 });
    });

    it('EOF at a prompt keeps the run and exits 130 with the resume command', async () => {
      const orchestrator = new FakeOrchestrator(scriptedRun(true));
      const io = testIo(['a'], workspace);
      assert.equal(await runCli(['run', 'Fix it', '--json'], io, depsWith(orchestrator)), 130);
      assert.match(io.err(), /Run run-1 interrupted; resume with: ironbees resume run-1/);
      assert.deepEqual(orchestrator.decisions, [{ type: 'APPROVE' }]);
      // Prompts never reach stdout, even mid-dialogue.
      for (const line of io.out().trimEnd().split('\n')) assert.doesNotThrow(() => JSON.parse(line));
    });

    it('Ctrl-C while a step works exits 130; a second Ctrl-C quits at once', async () => {
      const orchestrator = new FakeOrchestrator(async function* (_run, signal) {
        yield makeState({ currentNode: 'INIT' });
        await working(signal);
        yield makeState({ currentNode: 'PLAN' });
      });
      const io = testIo(null, workspace);
      const done = runCli(['run', 'Fix it', '--yes'], io, depsWith(orchestrator));
      await new Promise((resolve) => setTimeout(resolve, 20));
      io.interrupt();
      io.interrupt();
      assert.equal(await done, 130);
      assert.deepEqual(io.exits, [130]);
      assert.match(io.err(), /resume with: ironbees resume run-1/);
      assert.ok(!io.err().includes('PLAN'));
    });

    it('a failed run exits 1 with its error; an error thrown by the orchestrator is reported', async () => {
      const failed = new FakeOrchestrator(async function* () {
        yield makeState({ currentNode: 'FAILED', metadata: { error: 'the model refused' } });
      });
      const io = testIo(null, workspace);
      assert.equal(await runCli(['run', 'x', '--yes'], io, depsWith(failed)), 1);
      assert.match(io.err(), /the run failed: the model refused/);

      const broken = new FakeOrchestrator(async function* () {
        yield makeState({ currentNode: 'PLAN' });
        throw new Error('disk full');
      });
      const io2 = testIo(null, workspace);
      assert.equal(await runCli(['run', 'x', '--yes'], io2, depsWith(broken)), 1);
      assert.match(io2.err(), /error: disk full/);
      assert.match(io2.err(), /resume with: ironbees resume run-1/);
    });

    it('--demo is labelled on stderr and asks for the demo model', async () => {
      const orchestrator = new FakeOrchestrator(scriptedRun(true));
      const io = testIo(null, workspace);
      assert.equal(await runCli(['run', 'x', '--yes', '--demo', '--json'], io, depsWith(orchestrator)), 0);
      assert.equal(runtimeCalls[0].demo, true);
      assert.match(io.err(), /DEMO MODE/);
      assert.ok(!io.out().includes('DEMO'));
    });
  });

  describe('resume, runs, revert', () => {
    async function persistRun(runId: string, state: Partial<CodingState>, machine: object = {}): Promise<RunStore> {
      const store = new RunStore(fsHost(workspace));
      const codingState = makeState({ stateId: runId, ...state });
      await store.save({
        schemaVersion: STATE_SCHEMA_VERSION,
        runId,
        createdAt: '2025-01-01T00:00:00.000Z',
        updatedAt: '2025-01-02T03:04:05.000Z',
        codingState,
        machine,
      });
      return store;
    }

    it('resume continues a persisted run, and refuses an unknown id with exit 2', async () => {
      await persistRun('run-1', { currentNode: 'WAIT_HUMAN' });
      const orchestrator = new FakeOrchestrator(async function* (run) {
        yield makeState({ currentNode: 'WAIT_HUMAN', metadata: { handoffPath: HANDOFF } });
        await run.decision();
        yield makeState({ currentNode: 'SUCCESS' });
      });
      const io = testIo(['c', 'try harder', ''], workspace);
      assert.equal(await runCli(['resume', 'run-1'], io, depsWith(orchestrator)), 0);
      assert.equal(orchestrator.resumedId, 'run-1');
      assert.deepEqual(orchestrator.decisions, [{ type: 'CONTINUE', guidance: 'try harder', additionalIterations: 3 }]);

      assert.equal(runtimeCalls[0].engineTarget, undefined, 'no target recorded: the engine finds the solution');

      const unknown = testIo(null, workspace);
      assert.equal(await runCli(['resume', 'run-9'], unknown, depsWith(orchestrator)), 2);
      assert.match(unknown.err(), /No run with id run-9/);
    });

    it('resume has the C# engine open the target the run started with', async () => {
      await persistRun('run-2', { currentNode: 'WAIT_HUMAN' }, { context: { workflow: { target: 'src/B/B.slnx' } } });
      const orchestrator = new FakeOrchestrator(async function* () {
        yield makeState({ currentNode: 'SUCCESS' });
      });
      assert.equal(await runCli(['resume', 'run-2'], testIo(null, workspace), depsWith(orchestrator)), 0);
      assert.equal(runtimeCalls[0].engineTarget, 'src/B/B.slnx');
    });

    it('--min-call-interval is kept with the run, and resume paces the model calls the same without the flag', async () => {
      const started = new FakeOrchestrator(async function* () {
        yield makeState({ currentNode: 'SUCCESS' });
      });
      assert.equal(
        await runCli(
          ['run', 'Pace it', '-w', workspace, '--yes', '--min-call-interval', '2.5'],
          testIo(null, workspace),
          depsWith(started),
        ),
        0,
      );
      assert.equal(started.context?.minCallIntervalMs, 2500);
      assert.equal(runtimeCalls[0].minCallIntervalMs, 2500);

      // What the run kept (its machine's workflow context) is what resume builds the runtime with.
      await persistRun('run-4', { currentNode: 'WAIT_PLAN_APPROVAL' }, { context: { workflow: started.context } });
      const resumed = new FakeOrchestrator(async function* () {
        yield makeState({ currentNode: 'SUCCESS' });
      });
      assert.equal(await runCli(['resume', 'run-4', '--yes'], testIo(null, workspace), depsWith(resumed)), 0);
      assert.equal(runtimeCalls[1].minCallIntervalMs, 2500);
    });

    it('--sandbox is kept with the run: resume builds and tests the same way without the flag, or as the flag says', async () => {
      const started = new FakeOrchestrator(async function* () {
        yield makeState({ currentNode: 'SUCCESS' });
      });
      assert.equal(
        await runCli(['run', 'Contain it', '-w', workspace, '--yes', '--sandbox', 'off'], testIo(null, workspace), depsWith(started)),
        0,
      );
      assert.equal(started.context?.sandbox, 'off');
      assert.equal(runtimeCalls[0].sandbox, 'off');
      await persistRun('run-5', { currentNode: 'WAIT_PLAN_APPROVAL' }, { context: { workflow: started.context } });
      const resume = (): FakeOrchestrator =>
        new FakeOrchestrator(async function* () {
          yield makeState({ currentNode: 'SUCCESS' });
        });
      assert.equal(await runCli(['resume', 'run-5', '--yes'], testIo(null, workspace), depsWith(resume())), 0);
      assert.equal(runtimeCalls[1].sandbox, 'off');
      assert.equal(await runCli(['resume', 'run-5', '--yes', '--sandbox', 'on'], testIo(null, workspace), depsWith(resume())), 0);
      assert.equal(runtimeCalls[2].sandbox, 'on');
    });

    it('resume of a run that already ended says so, with its exit code, building nothing', async () => {
      await persistRun('run-3', { currentNode: 'FAILED' });
      const io = testIo(null, workspace);
      assert.equal(await runCli(['resume', 'run-3'], io, depsWith(new FakeOrchestrator(scriptedRun(true)))), 1);
      assert.match(io.err(), /already ended at FAILED/);
      assert.equal(runtimeCalls.length, 0);
    });

    it('runs prints a table, or one JSON line per run', async () => {
      await persistRun('run-1', { currentNode: 'SUCCESS', iterationCount: 2 });
      await persistRun('run-2', { currentNode: 'WAIT_HUMAN', iterationCount: 5, userRequest: 'Second request' });
      const io = testIo(null, workspace);
      assert.equal(await runCli(['runs'], io, depsWith(new FakeOrchestrator(scriptedRun(true)))), 0);
      const lines = io.out().trimEnd().split('\n');
      assert.match(lines[0], /^RUN\s+STATE\s+ITER\s+TOKENS IN\/OUT\s+COST\s+UPDATED \(UTC\)\s+REQUEST$/);
      assert.match(lines[1], /^run-1\s+SUCCESS\s+2\/5\s+1200\/340\s+\$0\.0123\s+2025-01-02 03:04\s+Fix the failing Calculator test$/);
      assert.match(lines[2], /^run-2\s+WAIT_HUMAN\s+5\/5 .*Second request$/);
      assert.equal(runtimeCalls.length, 0);

      const json = testIo(null, workspace);
      assert.equal(await runCli(['runs', '--json'], json, depsWith(new FakeOrchestrator(scriptedRun(true)))), 0);
      const parsed = json
        .out()
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { runId: string; currentNode: string });
      assert.deepEqual(
        parsed.map((r) => [r.runId, r.currentNode]),
        [
          ['run-1', 'SUCCESS'],
          ['run-2', 'WAIT_HUMAN'],
        ],
      );
    });

    it('runs in an empty workspace says so on stderr', async () => {
      const io = testIo(null, workspace);
      assert.equal(await runCli(['runs'], io, depsWith(new FakeOrchestrator(scriptedRun(true)))), 0);
      assert.equal(io.out(), '');
      assert.match(io.err(), /No runs/);
    });

    it('revert restores changed files, deletes created ones and says which', async () => {
      const store = await persistRun('run-1', { currentNode: 'SUCCESS' });
      await fs.mkdir(path.join(workspace, 'src'));
      await fs.writeFile(path.join(workspace, 'src/Calc.cs'), 'a - b\n');
      await store.journal.applyEdits('run-1', [MODIFY_EDIT, CREATE_EDIT]);
      assert.equal(await fs.readFile(path.join(workspace, 'src/Calc.cs'), 'utf8'), 'a + b\n');
      const io = testIo(null, workspace);
      assert.equal(await runCli(['revert', 'run-1'], io, depsWith(new FakeOrchestrator(scriptedRun(true)))), 0);
      assert.equal(await fs.readFile(path.join(workspace, 'src/Calc.cs'), 'utf8'), 'a - b\n');
      await assert.rejects(fs.stat(path.join(workspace, 'tests/AddTests.cs')));
      assert.match(io.out(), /restored src\/Calc\.cs/);
      assert.match(io.out(), /deleted {2}tests\/AddTests\.cs/);

      const unknown = testIo(null, workspace);
      assert.equal(await runCli(['revert', 'nope'], unknown, depsWith(new FakeOrchestrator(scriptedRun(true)))), 2);
    });
  });
});
