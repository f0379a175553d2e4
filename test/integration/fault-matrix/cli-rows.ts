// kill -9 of the real CLI (`node dist/cli.js`, real dotnet on the calculator fixture, the real SDK
// against the fake Messages API), one chain on one workspace: killed while the planner's model call
// is in flight, resumed, killed again while the coder's call is in flight, resumed to SUCCESS; and
// while the first process is alive, a second `ironbees run` is refused with nothing changed. The
// rows run in order and share the chain.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../../support/fake-anthropic';
import type { FakeAnthropic, FakeTurn } from '../../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, runCli, startCli, until } from '../../support/cli-harness';
import type { CliRun } from '../../support/cli-harness';
import { allBytes, workspaceBytes } from '../../support/fault-matrix/ledger';
import type { WorkspaceBytes } from '../../support/fault-matrix/ledger';
import type { FaultRow } from './matrix';

const SOURCE = 'src/Calculator/Calculator.cs';
const PLAN = {
  spec: 'Calc.Divide returns a / b.',
  plan: {
    summary: 'Fix Divide.',
    steps: [{ number: 1, description: 'Return a / b', actionType: 'MODIFY', filePath: SOURCE, rationale: 'The test expects 6 / 3 = 2' }],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};
const MODEL_CALL_MS = 240_000;

interface Chain {
  fake: FakeAnthropic;
  workspace: string;
  env: Record<string, string>;
  before: WorkspaceBytes;
  runId?: string;
  releases: Array<() => void>;
  children: CliRun[];
}
let chain: Chain | undefined;

async function theChain(): Promise<Chain> {
  if (chain) return chain;
  ensureCliBuilt();
  const fake = await startFakeAnthropic();
  const workspace = copyFixture('calculator');
  chain = {
    fake,
    workspace,
    env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url },
    before: workspaceBytes(workspace),
    releases: [],
    children: [],
  };
  return chain;
}

/** Kills every CLI process the chain started and removes its workspace. */
export async function endCliChain(): Promise<void> {
  if (!chain) return;
  for (const child of chain.children)
    if (child.child.exitCode === null && child.child.signalCode === null) process.kill(-(child.child.pid as number), 'SIGKILL');
  for (const release of chain.releases) release();
  await chain.fake.close();
  fs.rmSync(chain.workspace, { recursive: true, force: true });
  chain = undefined;
}

/** A model call that is not answered until the process is killed (then it is dropped). */
function holdCall(c: Chain, answer: FakeTurn): void {
  c.fake.enqueue(() => new Promise((resolve) => c.releases.push(() => resolve(answer))));
}

function start(c: Chain, args: string[]): CliRun {
  const run = startCli([...args, '--workspace', c.workspace, '--yes', '--json'], c.env);
  c.children.push(run);
  return run;
}

/** dotnet's build output in the fixture's project folders: written by the build, not the person's files. */
const BUILD_OUTPUT = /(^|\/)(bin|obj|TestResults)\//;

/** What the calculator's source holds once the coder's edit is applied. */
function fixedSource(c: Chain): string {
  return (c.before.get(SOURCE) as Buffer).toString('utf8').replace('return a * b;', 'return a / b;');
}

let first: CliRun | undefined;

export const cliRows: FaultRow[] = [
  {
    id: 'C1',
    fault: 'a second real `ironbees run` while a run is active',
    injectedAt: 'second process, first held at PLAN',
    expectedEnd: 'exit 2, no byte changed',
    run: async () => {
      const c = await theChain();
      holdCall(c, toolUse('submit_plan', PLAN));
      first = start(c, ['run', 'Fix the failing Calculator test']);
      await first.waitForNode('PLAN');
      assert.ok(await until(() => c.fake.requests.length === 1, MODEL_CALL_MS), 'the planner called the model');
      const snapshot = allBytes(c.workspace);
      const second = await runCli(['run', 'Add a Modulo method', '--workspace', c.workspace, '--yes', '--json'], c.env);
      assert.match(second.stderr, /is in progress on this workspace/);
      assert.deepEqual(allBytes(c.workspace), snapshot, 'the refused run changed no byte, .ironbees included');
      return {
        end: second.code === 2 && c.fake.requests.length === 1 ? 'exit 2, no byte changed' : `exit ${second.code}`,
        workspace: { dir: c.workspace, before: c.before, changes: {}, ignore: BUILD_OUTPUT },
      };
    },
  },
  {
    id: 'C2',
    fault: 'kill -9 of the real CLI while the planner calls the model, then `ironbees resume`',
    injectedAt: 'PLAN (real process)',
    expectedEnd: 'killed at PLAN; resumed to CODE',
    run: async () => {
      const c = await theChain();
      const killedAt = await killRunning(c, first as CliRun);
      // The resumed run plans again; its coder call is held, and C3 kills it there.
      c.fake.enqueue(toolUse('submit_plan', PLAN));
      holdCall(c, toolUse('submit_changes', { summary: 'nothing' }));
      first = start(c, ['resume', c.runId as string]);
      await first.waitForNode('CODE');
      assert.ok(await until(() => c.fake.requests.length === 3, MODEL_CALL_MS), 'the coder called the model');
      return {
        end: `killed at ${killedAt}; resumed to CODE`,
        workspace: { dir: c.workspace, before: c.before, changes: {}, ignore: BUILD_OUTPUT },
      };
    },
  },
  {
    id: 'C3',
    fault: 'kill -9 of the real CLI while the coder calls the model, then `ironbees resume` (real dotnet VALIDATE)',
    injectedAt: 'CODE (real process)',
    expectedEnd: 'killed at CODE; resumed SUCCESS',
    run: async () => {
      const c = await theChain();
      const killedAt = await killRunning(c, first as CliRun);
      c.fake.enqueue(
        toolUse('str_replace_based_edit_tool', {
          command: 'str_replace',
          path: SOURCE,
          old_str: 'return a * b;',
          new_str: 'return a / b;',
        }),
        toolUse('submit_changes', { summary: 'Fixed.' }),
      );
      const resumed = await runCli(['resume', c.runId as string, '--workspace', c.workspace, '--yes', '--json'], c.env);
      assert.equal(resumed.code, 0, resumed.stderr);
      return {
        end: `killed at ${killedAt}; resumed ${resumed.states.at(-1)?.currentNode}`,
        workspace: { dir: c.workspace, before: c.before, changes: { [SOURCE]: fixedSource(c) }, ignore: BUILD_OUTPUT },
      };
    },
  },
];

/** kill -9 of a live CLI process; the state its run was saved at. */
async function killRunning(c: Chain, run: CliRun): Promise<string> {
  process.kill(-(run.child.pid as number), 'SIGKILL');
  const killed = await run.done;
  assert.equal(killed.code, null, 'killed by a signal');
  c.runId = killed.states.at(-1)?.stateId;
  const state = JSON.parse(fs.readFileSync(path.join(c.workspace, '.ironbees/runs', c.runId as string, 'state.json'), 'utf8')) as {
    codingState: { currentNode: string };
  };
  return state.codingState.currentNode;
}
