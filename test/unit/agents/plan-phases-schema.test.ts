import * as assert from 'node:assert/strict';
import { executionPlanSchema, submitPlanTool } from '../../../src/core/agents/planner/terminal-tool';
import { MAX_PHASES, acceptPlan } from '../../../src/core/agents/planner/runner';
import { checkedEditedPlan } from '../../../src/core/workflow/run-checks';
import { findCycle, phaseGraphProblem, readyPhaseIds } from '../../../src/core/phase-graph';
import type { PhaseStatus } from '../../../src/core/model';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { bare, memoryHost, toolContext } from '../tools/memory-host';

const step = (filePath: string, description = `edit ${filePath}`) => ({
  number: 1,
  description,
  actionType: 'MODIFY',
  filePath,
  rationale: '',
});
const phase = (id: string, dependencies: string[], files: string[]) => ({
  id,
  name: `Phase ${id}`,
  description: `Does ${id}`,
  dependencies,
  maxIterations: 2,
  steps: files.map((f) => step(f)),
});
const phased = (phases: unknown[]) => ({ summary: 'Three changes', phases, complexity: 'MEDIUM' });

describe('plan phases: the schema and the graph check', () => {
  it('takes phases instead of steps; the plan steps and files become every phase’s, in order', () => {
    const plan = executionPlanSchema.parse(
      phased([phase('a', [], ['A.cs']), phase('b', [], ['B.cs', 'A.cs']), phase('c', ['a', 'b'], ['C.cs'])]),
    );
    assert.deepEqual(
      plan.steps.map((s) => [s.number, s.filePath]),
      [
        [1, 'A.cs'],
        [2, 'B.cs'],
        [3, 'A.cs'],
        [4, 'C.cs'],
      ],
    );
    assert.deepEqual(plan.affectedFiles, ['A.cs', 'B.cs', 'C.cs']);
    assert.deepEqual(
      plan.phases?.map((p) => [p.id, p.name, p.description, p.dependencies, p.maxIterations, p.affectedFiles]),
      [
        ['a', 'Phase a', 'Does a', [], 2, ['A.cs']],
        ['b', 'Phase b', 'Does b', [], 2, ['B.cs', 'A.cs']],
        ['c', 'Phase c', 'Does c', ['a', 'b'], 2, ['C.cs']],
      ],
    );
  });

  it('a plan with steps has no phases (it is one phase)', () => {
    const plan = executionPlanSchema.parse({ summary: 's', steps: [step('A.cs')], complexity: 'LOW' });
    assert.equal('phases' in plan, false);
  });

  it('is lenient on ids as numbers, null lists and budgets as text', () => {
    const plan = executionPlanSchema.parse(
      phased([
        { id: 1, name: 'One', description: null, dependencies: null, maxIterations: '3', steps: [step('A.cs')] },
        { id: 2, name: 'Two', dependencies: '[1]', steps: [step('B.cs')] },
      ]),
    );
    assert.deepEqual(
      plan.phases?.map((p) => [p.id, p.description, p.dependencies, p.maxIterations]),
      [
        ['1', '', [], 3],
        ['2', '', ['1'], undefined],
      ],
    );
  });

  it('refuses a plan with neither steps nor phases, and a phase without steps', () => {
    const none = executionPlanSchema.safeParse({ summary: 's', complexity: 'LOW' });
    assert.equal(none.success, false);
    assert.match(none.error?.issues[0]?.message ?? '', /at least one step \(or phases, each with its steps\)/);
    assert.equal(executionPlanSchema.safeParse(phased([{ id: 'a', name: 'A', steps: [] }])).success, false);
  });

  it('refuses a cycle, naming it, as a tool error the planner reads', async () => {
    const registry = new ToolRegistry().register(submitPlanTool);
    const result = await registry.execute(
      submitPlanTool,
      { spec: 's', plan: phased([phase('a', ['c'], ['A.cs']), phase('b', ['a'], ['B.cs']), phase('c', ['b'], ['C.cs'])]) },
      toolContext(memoryHost()),
    );
    assert.deepEqual(bare(result), {
      ok: false,
      error: [
        'Invalid arguments for submit_plan:',
        "- plan.phases: The phases' dependencies form a cycle (a → c → b → a), so none of them could ever start: make the order one-way.",
        'Fix these arguments and call submit_plan again.',
      ].join('\n'),
    });
  });

  it('refuses an unknown dependency, naming the ids there are', () => {
    assert.equal(
      phaseGraphProblem([
        { id: 'a', dependencies: [] },
        { id: 'b', dependencies: ['a', 'x'] },
      ]),
      'Phase "b" depends on "x", which no phase of the plan has as its id (the ids are a, b).',
    );
  });

  it('refuses a phase depending on itself, and duplicate ids', () => {
    assert.equal(
      phaseGraphProblem([{ id: 'a', dependencies: ['a'] }]),
      'Phase "a" depends on itself: remove it from its own dependencies.',
    );
    assert.equal(
      phaseGraphProblem([
        { id: 'a', dependencies: [] },
        { id: 'a', dependencies: [] },
      ]),
      'Phase ids must be unique; these are used more than once: a.',
    );
    assert.equal(
      phaseGraphProblem([
        { id: 'a', dependencies: [] },
        { id: 'b', dependencies: ['a'] },
      ]),
      null,
    );
  });

  it('finds a cycle behind an acyclic start', () => {
    assert.deepEqual(
      findCycle([
        { id: 'x', dependencies: ['a'] },
        { id: 'a', dependencies: ['b'] },
        { id: 'b', dependencies: ['a'] },
      ]),
      ['a', 'b', 'a'],
    );
    assert.equal(findCycle([{ id: 'x', dependencies: [] }]), null);
  });

  it('ready phases: pending ones whose dependencies are all complete, in plan order', () => {
    const graph = [
      { id: 'a', dependencies: [] },
      { id: 'b', dependencies: [] },
      { id: 'c', dependencies: ['a', 'b'] },
    ];
    const statuses = (entries: Array<[string, PhaseStatus]>) => new Map(entries);
    assert.deepEqual(readyPhaseIds(graph, statuses([])), ['a', 'b']);
    assert.deepEqual(readyPhaseIds(graph, statuses([['a', 'running']])), ['b']);
    assert.deepEqual(readyPhaseIds(graph, statuses([['a', 'complete']])), ['b']);
    assert.deepEqual(
      readyPhaseIds(
        graph,
        statuses([
          ['a', 'complete'],
          ['b', 'error'],
        ]),
      ),
      [],
    );
    assert.deepEqual(
      readyPhaseIds(
        graph,
        statuses([
          ['a', 'complete'],
          ['b', 'complete'],
        ]),
      ),
      ['c'],
    );
  });

  it('acceptPlan tidies every phase’s paths and numbers and refuses an oversized phase or too many phases', () => {
    const plan = executionPlanSchema.parse(phased([phase('a', [], ['./A.cs', 'src\\B.cs'])]));
    const accepted = acceptPlan({ spec: 's', plan });
    assert.equal(accepted.ok, true);
    if (!accepted.ok) return;
    assert.deepEqual(
      accepted.value.plan.phases?.[0]?.steps.map((s) => [s.number, s.filePath]),
      [
        [1, 'A.cs'],
        [2, 'src/B.cs'],
      ],
    );
    assert.deepEqual(accepted.value.plan.phases?.[0]?.affectedFiles, ['A.cs', 'src/B.cs']);
    const big = executionPlanSchema.parse(
      phased([
        phase(
          'a',
          [],
          Array.from({ length: 21 }, (_, i) => `F${i}.cs`),
        ),
      ]),
    );
    assert.deepEqual(acceptPlan({ spec: 's', plan: big }), {
      ok: false,
      error: 'Phase "a" has 21 steps; a phase has at most 20. Merge the steps on one file into one, or split the phase.',
    });
    const many = executionPlanSchema.parse(phased(Array.from({ length: MAX_PHASES + 1 }, (_, i) => phase(`p${i}`, [], [`F${i}.cs`]))));
    assert.deepEqual(acceptPlan({ spec: 's', plan: many }), {
      ok: false,
      error: 'The plan has 9 phases; a plan has at most 8. Merge small phases.',
    });
  });

  it('an edited plan that drops a phase another depends on is refused at the gate', () => {
    assert.throws(
      () => checkedEditedPlan('run-1', phased([phase('a', [], ['A.cs']), phase('c', ['a', 'b'], ['C.cs'])])),
      /phases: Phase "c" depends on "b", which no phase of the plan has as its id \(the ids are a, c\)/,
    );
    const kept = checkedEditedPlan('run-1', phased([phase('a', [], ['A.cs']), phase('c', ['a'], ['C.cs'])]));
    assert.deepEqual(
      kept.phases?.map((p) => p.id),
      ['a', 'c'],
    );
  });
});
