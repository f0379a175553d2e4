// A plan in phases, end to end: the real CLI, real dotnet on a copy of the calculator fixture, the
// real Anthropic SDK against a scripted fake. The phases run in dependency order, each its own
// loop with its own iterations; a plan with a cycle is refused and the corrected one accepted; a
// run killed in the middle of a phase continues that phase on resume.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { toolUse } from '../support/fake-anthropic';
import type { FakeRequest } from '../support/fake-anthropic';
import { readRunFile, runCli, startCli, traceEvents, until } from '../support/cli-harness';
import { cliRunWithFake } from '../support/cli-with-fake';
import { apmasTools } from '../../src/mcp-server/apmas-tools';
import { CoordinationStore } from '../../src/core/workflow/coordination-store';
import { createNodeHost } from '../../src/host/node';

const SOURCE = 'src/Calculator/Calculator.cs';
const MOD = 'src/Calculator/Mod.cs';
const TESTS = 'tests/Calculator.Tests/CalcTests.cs';

const step = (filePath: string, description: string, actionType = 'MODIFY') => ({
  number: 1,
  description,
  actionType,
  filePath,
  rationale: '',
});
const FIX = {
  id: 'fix',
  name: 'Fix Divide',
  description: 'Make Calc.Divide divide',
  dependencies: [],
  maxIterations: 2,
  steps: [step(SOURCE, 'Return a / b')],
};
const MODULO = {
  id: 'mod',
  name: 'Add Mod',
  description: 'A Mod.Of helper',
  dependencies: [],
  steps: [step(MOD, 'Create Mod.Of', 'CREATE')],
};
const COVER = {
  id: 'cover',
  name: 'Cover Mod',
  description: 'A test for Mod.Of',
  dependencies: ['fix', 'mod'],
  steps: [step(TESTS, 'Test Mod.Of')],
};
/** The run's agents as the APMAS tools see them: each phase's coder on its own record. */
const AGENTS_SEEN = [
  ['coder@cover', 'completed', [TESTS]],
  ['coder@fix', 'completed', [SOURCE]],
  ['coder@mod', 'completed', [MOD]],
  ['planner', 'completed', []],
];
const SPEC = 'Divide divides; Mod.Of(a, b) returns a % b and is tested.';

function plan(phases: unknown[]) {
  return { spec: SPEC, plan: { summary: 'Fix Divide, add Mod, cover it.', phases, complexity: 'MEDIUM' } };
}

function edit(file: string, oldStr: string, newStr: string): ReturnType<typeof toolUse> {
  return toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: file, old_str: oldStr, new_str: newStr });
}
const createMod = toolUse('str_replace_based_edit_tool', {
  command: 'create',
  path: MOD,
  file_text: 'namespace Calculator;\n\npublic static class Mod\n{\n    public static int Of(int a, int b) => a % b;\n}\n',
});
const coverMod = edit(
  TESTS,
  '    [Fact]\n    public void Divide_ByZero_Throws()',
  '    [Fact]\n    public void Mod_ReturnsRemainder() => Assert.Equal(1, Mod.Of(7, 3));\n\n    [Fact]\n    public void Divide_ByZero_Throws()',
);

/** The first user message of a request: what the agent was told at the start of its step. */
function firstMessage(request: FakeRequest): string {
  const content = request.body.messages[0]?.content;
  if (typeof content === 'string') return content;
  return (content ?? []).map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n');
}

/** Resolves once the run's state.json says the second phase is running in CODE (persisted, so a resume starts there). */
async function secondPhaseCoding(workspace: string): Promise<void> {
  const runs = path.join(workspace, '.ironbees', 'runs');
  const coding = (): boolean =>
    readdirSync(runs).some((id) => {
      try {
        const state = JSON.parse(readFileSync(path.join(runs, id, 'state.json'), 'utf8')) as {
          codingState: { currentNode: string; phases?: PhaseLine[] };
        };
        return state.codingState.currentNode === 'CODE' && state.codingState.phases?.[1]?.status === 'running';
      } catch {
        return false;
      }
    });
  assert.ok(await until(coding, 60_000, 50), 'state.json never showed the second phase coding');
}

function toolErrors(request: FakeRequest): string[] {
  const errors: string[] = [];
  for (const message of request.body.messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_result' && block.is_error === true) errors.push(JSON.stringify(block.content));
    }
  }
  return errors;
}

interface PhaseLine {
  phaseId: string;
  status: string;
  iterationsRun: number;
  maxIterations: number;
}

describe('ironbees run with a plan in phases (real CLI, real dotnet, fake Messages API)', function () {
  this.timeout(600_000);
  const cli = cliRunWithFake();

  it('refuses a cycle, takes the corrected plan, runs fix and mod before cover, each with its own iterations', async () => {
    const { fake, workspace, env } = cli;
    const told: Record<string, string> = {};
    let cycleRefusal: string[] = [];
    fake.enqueue(
      // The cover phase listed first: the order comes from the dependencies.
      toolUse('submit_plan', plan([{ ...COVER }, { ...FIX, dependencies: ['cover'] }, MODULO])),
      (request) => {
        cycleRefusal = toolErrors(request);
        return toolUse('submit_plan', plan([COVER, FIX, MODULO]));
      },
      // fix, iteration 1: a wrong fix the tests catch.
      (request) => {
        told.fix = firstMessage(request);
        return edit(SOURCE, 'return a * b;', 'return a + b;');
      },
      toolUse('submit_changes', { summary: 'Tried a + b.' }),
      // fix, iteration 2.
      edit(SOURCE, 'return a + b;', 'return a / b;'),
      toolUse('submit_changes', { summary: 'Divide returns a / b.' }),
      (request) => {
        told.mod = firstMessage(request);
        return createMod;
      },
      toolUse('submit_changes', { summary: 'Added Mod.Of.' }),
      (request) => {
        told.cover = firstMessage(request);
        return coverMod;
      },
      toolUse('submit_changes', { summary: 'Covered Mod.Of.' }),
    );
    const result = await runCli(['run', 'Fix Divide, add Mod and cover it', '--workspace', workspace, '--yes', '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(cycleRefusal.length, 1);
    assert.match(cycleRefusal[0] ?? '', /form a cycle \(cover → fix → cover\)/);

    const final = result.states.at(-1) as unknown as { currentNode: string; iterationCount: number; phases: PhaseLine[]; stateId: string };
    assert.equal(final.currentNode, 'SUCCESS');
    assert.equal(final.iterationCount, 4);
    assert.deepEqual(
      final.phases.map((p) => [p.phaseId, p.status, p.iterationsRun, p.maxIterations]),
      [
        ['cover', 'complete', 1, 5],
        ['fix', 'complete', 2, 2],
        ['mod', 'complete', 1, 5],
      ],
    );
    // The order: fix (iterations 1-2), mod (3), cover (4), by the phases' start times.
    const started = [...final.phases].sort((a, b) =>
      String((a as { startedAt?: string }).startedAt).localeCompare(String((b as { startedAt?: string }).startedAt)),
    );
    assert.deepEqual(
      started.map((p) => p.phaseId),
      ['fix', 'mod', 'cover'],
    );
    // Each coder sees its own phase; cover sees what fix and mod did, not their steps.
    assert.match(told.fix ?? '', /# Phase 1 of 3: Fix Divide/);
    assert.doesNotMatch(told.fix ?? '', /Create Mod\.Of/);
    assert.match(told.mod ?? '', /# Phase 2 of 3: Add Mod[\s\S]*## Fix Divide \(fix\)\n\nDivide returns a \/ b\./);
    assert.match(told.cover ?? '', /# Phase 3 of 3: Cover Mod[\s\S]*## Add Mod \(mod\)\n\nAdded Mod\.Of\./);
    assert.doesNotMatch(told.cover ?? '', /Return a \/ b/);

    // Five validations: the baseline, and one per iteration (the last one on the whole result).
    const validations = traceEvents(workspace, final.stateId).filter((e) => e.kind === 'transition' && e.to === 'VALIDATE');
    assert.equal(validations.length, 4);
    assert.match(readFileSync(path.join(workspace, TESTS), 'utf8'), /Mod_ReturnsRemainder/);
    const handoff = readRunFile(workspace, final.stateId, 'HANDOFF.md');
    assert.match(handoff, /### Fix Divide \(`fix`\): complete\n\n- Iterations: 2 of 2/);
    assert.match(handoff, /### Cover Mod \(`cover`\): complete\n\n- Iterations: 1 of 5\n- After: `fix`, `mod`/);
    // The CLI says each phase's progress.
    assert.match(result.stderr, /phase 1\/3 Fix Divide: started/);
    assert.match(result.stderr, /phase Fix Divide: complete after 2 iteration\(s\)/);
    assert.match(result.stderr, /phase 3\/3 Cover Mod: started/);

    // One coordination model: `ironbees mcp`'s apmas_get_context on this run shows each phase's coder.
    const getContext = apmasTools(new CoordinationStore(createNodeHost(workspace))).find((tool) => tool.name === 'apmas_get_context');
    assert.ok(getContext);
    const outcome = await getContext.execute({ runId: final.stateId, agent: 'person', include: ['agents'] }, {} as never);
    assert.equal(outcome.ok, true);
    const agents = (outcome.data as { agents: Record<string, { status: string; artifacts: string[] }> }).agents;
    assert.deepEqual(
      Object.entries(agents)
        .map(([name, record]) => [name, record.status, record.artifacts])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      AGENTS_SEEN,
    );
  });

  it('a run killed in the middle of a phase continues that phase on resume', async () => {
    const { fake, workspace, env } = cli;
    let first: ReturnType<typeof startCli> | null = null;
    fake.enqueue(
      toolUse('submit_plan', plan([FIX, { ...MODULO, dependencies: ['fix'] }])),
      edit(SOURCE, 'return a * b;', 'return a / b;'),
      toolUse('submit_changes', { summary: 'Divide returns a / b.' }),
      // mod's coder: killed on its first model call, once its phase is on disk as running.
      async () => {
        await secondPhaseCoding(workspace);
        if (first?.child.pid) process.kill(-first.child.pid, 'SIGKILL');
        return new Promise(() => undefined);
      },
    );
    first = startCli(['run', 'Fix Divide and add Mod', '--workspace', workspace, '--yes', '--json'], env);
    const killed = await first.done;
    assert.notEqual(killed.code, 0);
    const runId = (killed.states.at(-1) as { stateId: string }).stateId;
    const persisted = JSON.parse(readRunFile(workspace, runId, 'state.json')) as {
      codingState: { currentNode: string; phases: PhaseLine[] };
    };
    assert.equal(persisted.codingState.currentNode, 'CODE');
    assert.deepEqual(
      persisted.codingState.phases.map((p) => [p.phaseId, p.status, p.iterationsRun]),
      [
        ['fix', 'complete', 1],
        ['mod', 'running', 1],
      ],
    );

    let resumedTold = '';
    fake.enqueue(
      (request) => {
        resumedTold = firstMessage(request);
        return createMod;
      },
      toolUse('submit_changes', { summary: 'Added Mod.Of.' }),
    );
    const resumed = await runCli(['resume', runId, '--workspace', workspace, '--yes', '--json'], env);
    assert.equal(resumed.code, 0, resumed.stderr);
    const final = resumed.states.at(-1) as unknown as { currentNode: string; iterationCount: number; phases: PhaseLine[] };
    assert.equal(final.currentNode, 'SUCCESS');
    assert.equal(final.iterationCount, 2);
    assert.deepEqual(
      final.phases.map((p) => [p.phaseId, p.status, p.iterationsRun]),
      [
        ['fix', 'complete', 1],
        ['mod', 'complete', 1],
      ],
    );
    assert.match(resumedTold, /# Phase 2 of 2: Add Mod/);
    // fix was not run again: one validation for it, one for mod after the resume.
    const validations = traceEvents(workspace, runId).filter((e) => e.kind === 'transition' && e.to === 'VALIDATE');
    assert.equal(validations.length, 2);
  });
});
