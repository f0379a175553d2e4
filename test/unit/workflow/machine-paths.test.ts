// Every path of the statechart, enumerated by xstate/graph and then replayed on a real actor.
//
// The graph walks the machine's pure transition function, so it can fire the `xstate.done.actor.*`
// and `xstate.error.actor.*` events of the invoked steps itself: the outputs it fires are chosen
// here (validation passes or fails, a step throws). Each enumerated path is then replayed on a
// real actor whose fake steps answer with exactly those outputs, and must visit the same nodes.

import { strict as assert } from 'node:assert';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import type { StatePath } from 'xstate/graph';
import { WORKFLOW_NODES } from '../../../src/core/model';
import { EMPTY_USAGE } from '../../../src/core/model';
import type { DiffApprovalPolicy, PlanApprovalPolicy, ReviewMode, WorkflowNode } from '../../../src/core/model';
import { decide, runMachine } from '../../../src/core/workflow/machine';
import type { RunEvent } from '../../../src/core/workflow/run-context';
import { FakeSteps } from './fake-steps';
import type { StepName } from './fake-steps';
import { MachineRun } from './machine-driver';
import type { RunSnapshot } from './machine-driver';
import { baseline, codeOutput, failing, passing, plan, planOutput, runInput } from './samples';

/** A step's completion, as the graph fires it: what the invoked actor would have sent. */
interface StepEvent {
  type: string;
  output?: unknown;
  error?: Error;
}
type GraphEvent = RunEvent | StepEvent;

const STEP_OF: Partial<Record<WorkflowNode, StepName>> = {
  INIT: 'captureBaseline',
  PLAN: 'plan',
  CODE: 'code',
  VALIDATE: 'validate',
  DECIDE: 'decide',
  REVIEW: 'review',
  ESCALATE: 'writeHandoff',
};
/** Events from outside the run: a person's answers, and a request for help (sent while a step works). */
const HUMAN_EVENTS = new Set(['APPROVE', 'REJECT', 'CONTINUE', 'STOP', 'CANCEL', 'REQUEST_HELP']);
/** Small, so escalation is reached quickly; CONTINUE may add one more iteration, once. */
const GRAPH_MAX_ITERATIONS = 2;

function invokeId(node: WorkflowNode): string {
  const invoke = runMachine.root.states[node]?.invoke[0];
  assert.ok(invoke, `${node} invokes no step`);
  return invoke.id;
}

function done(node: WorkflowNode, output: unknown): StepEvent {
  return { type: `xstate.done.actor.${invokeId(node)}`, output };
}

function failed(node: WorkflowNode): StepEvent {
  return { type: `xstate.error.actor.${invokeId(node)}`, error: new Error(`${node} blew up`) };
}

/** The events worth exploring at each node: every outcome a step or a person can produce. */
function eventsAt(snapshot: RunSnapshot): GraphEvent[] {
  const context = snapshot.context;
  const cancel: RunEvent = { type: 'CANCEL' };
  // Explored in the first iteration only: a later one takes the same transitions, and every extra
  // branch multiplies the simple paths.
  const help: GraphEvent[] = context.iterationCount <= 1 ? [{ type: 'REQUEST_HELP', reason: 'The spec is ambiguous' }] : [];
  switch (snapshot.value as WorkflowNode) {
    case 'INIT':
      return [done('INIT', baseline()), failed('INIT'), cancel];
    case 'PLAN':
      return [done('PLAN', planOutput()), failed('PLAN'), ...help, cancel];
    case 'WAIT_PLAN_APPROVAL':
      return [{ type: 'APPROVE' }, { type: 'APPROVE', editedPlan: plan('Edited') }, { type: 'REJECT', feedback: 'Smaller steps' }, cancel];
    case 'CODE':
      return [done('CODE', codeOutput()), done('CODE', codeOutput([])), failed('CODE'), ...help, cancel];
    case 'WAIT_DIFF_APPROVAL':
      return [
        { type: 'APPROVE' },
        { type: 'APPROVE', files: [{ filePath: 'src/Notes.md', accepted: false, reason: 'No notes' }] },
        {
          type: 'APPROVE',
          files: [
            { filePath: 'src/Calc.cs', accepted: false },
            { filePath: 'src/Notes.md', accepted: false },
          ],
        },
        { type: 'REJECT', feedback: 'Wrong approach' },
        cancel,
      ];
    case 'VALIDATE':
      return [done('VALIDATE', passing()), done('VALIDATE', failing(context.iterationCount)), failed('VALIDATE'), ...help, cancel];
    case 'DECIDE':
      return [
        done('DECIDE', decide({ passed: context.passed, iteration: context.iterationCount, maxIterations: context.maxIterations })),
        cancel,
      ];
    case 'REVIEW': {
      const failedReview = { score: 4, criticalIssues: [], suggestions: [], pass: false };
      const back = context.iterationCount < context.maxIterations ? 'retry' : 'escalate';
      return [
        done('REVIEW', { verdict: 'pass', review: { ...failedReview, score: 9, pass: true }, errorContext: null, usage: EMPTY_USAGE }),
        done('REVIEW', { verdict: back, review: failedReview, errorContext: null, usage: EMPTY_USAGE }),
        failed('REVIEW'),
        ...help,
        cancel,
      ];
    }
    case 'ESCALATE':
      return [done('ESCALATE', { handoffPath: '/ws/.ironbees/runs/run-1/HANDOFF.md' }), failed('ESCALATE'), cancel];
    case 'WAIT_HUMAN': {
      // After a request for help while planning, CONTINUE plans again and adds no iteration.
      const more: GraphEvent[] =
        context.maxIterations <= GRAPH_MAX_ITERATIONS || context.helpRequest?.from === 'PLAN'
          ? [{ type: 'CONTINUE', guidance: 'Try Mul', additionalIterations: 1 }]
          : [];
      return [...more, { type: 'STOP' }, cancel];
    }
    default:
      return [];
  }
}

/**
 * Vertices are told apart by what decides the future (node, iteration, limit, verdict, whether a
 * proposal was accepted yet), not by the whole context: otherwise every distinct feedback text
 * would be a new vertex.
 */
function vertexKey(snapshot: RunSnapshot): string {
  const c = snapshot.context;
  return JSON.stringify([snapshot.value, c.iterationCount, c.maxIterations, c.passed, c.helpRequest?.from ?? null, anyApplied(snapshot)]);
}

function anyApplied(snapshot: RunSnapshot): boolean {
  return (snapshot.context.attempts ?? []).some((a) => a.outcome === 'applied');
}

type Path = StatePath<RunSnapshot, RunEvent>;

function enumerate(kind: 'shortest' | 'simple', planPolicy: PlanApprovalPolicy, diffs: DiffApprovalPolicy, review?: ReviewMode): Path[] {
  const options = {
    input: runInput({
      maxIterations: GRAPH_MAX_ITERATIONS,
      approval: { plan: planPolicy, diffs },
      ...(review ? { review: { mode: review, threshold: 8 } } : {}),
    }),
    // The graph's types only know the machine's own events; step completions are events too.
    events: eventsAt as unknown as (snapshot: RunSnapshot) => RunEvent[],
    serializeState: vertexKey,
  };
  return kind === 'shortest' ? getShortestPaths(runMachine, options) : getSimplePaths(runMachine, options);
}

function nodesOf(path: Path): WorkflowNode[] {
  const nodes: WorkflowNode[] = [];
  for (const step of path.steps) {
    const node = step.state.value as WorkflowNode;
    if (nodes[nodes.length - 1] !== node) nodes.push(node);
  }
  return nodes;
}

function describePath(path: Path): string {
  return path.steps
    .map((s) => `${(s.event as GraphEvent).type.replace(/^xstate\.(done|error)\.actor\.0\.ironbeesRun\./, '$1:')}→${String(s.state.value)}`)
    .join(' ');
}

/**
 * Replays a graph path on a real actor whose fake steps answer exactly as the path's events say.
 * Events are played in order, each once the run has entered (for the right number of times) the
 * node it happens at: a step's answer is scripted only then, because a step that a request for help
 * interrupts must not take the answer meant for its next run.
 */
async function replay(path: Path, planPolicy: PlanApprovalPolicy, diffs: DiffApprovalPolicy): Promise<void> {
  const steps = new FakeSteps(false);
  const events = path.steps.map((s) => s.event as GraphEvent);
  const run = new MachineRun(steps, { maxIterations: GRAPH_MAX_ITERATIONS, approval: { plan: planPolicy, diffs } });
  try {
    const expected = nodesOf(path);
    for (let i = 1; i < path.steps.length; i++) {
      const event = events[i];
      const at = path.steps[i - 1].state.value as WorkflowNode;
      const occurrence = nodesOf({ ...path, steps: path.steps.slice(0, i) }).filter((n) => n === at).length;
      const match = /^xstate\.(done|error)\.actor\.0\.ironbeesRun\.(\w+)$/.exec(event.type);
      if (match) {
        const completion = event as StepEvent;
        const step = STEP_OF[match[2] as WorkflowNode];
        assert.ok(step, `no step for ${event.type}`);
        await run.reach(at, occurrence);
        steps.script(step, match[1] === 'done' ? { output: completion.output as never } : { error: completion.error as Error });
        continue;
      }
      assert.ok(HUMAN_EVENTS.has(event.type), `unexpected event ${event.type}`);
      await run.sendAt(at, event as RunEvent, occurrence);
    }
    const last = expected[expected.length - 1];
    await run.reach(last, expected.filter((n) => n === last).length);
    assert.deepEqual(run.nodes, expected, describePath(path));
    assert.equal(run.snapshot.context.iterationCount, path.state.context.iterationCount);
    assert.equal(run.snapshot.context.maxIterations, path.state.context.maxIterations);
    assert.deepEqual(steps.unused(), [], `scripted answers left over on ${describePath(path)}`);
  } finally {
    run.stop();
  }
}

const POLICIES: [PlanApprovalPolicy, DiffApprovalPolicy][] = [
  ['always', 'always'],
  ['always', 'first'],
  ['always', 'never'],
  ['never', 'always'],
  ['never', 'first'],
  ['never', 'never'],
];

describe('run machine: every path', function () {
  this.timeout(60_000);

  it('reaches every node of the contract, and no other', () => {
    const reached = new Set<string>();
    for (const [planPolicy, diffs] of POLICIES) {
      for (const path of enumerate('simple', planPolicy, diffs)) reached.add(String(path.state.value));
    }
    // REVIEW only when reviews are on.
    assert.ok(!reached.has('REVIEW'));
    for (const path of enumerate('simple', 'never', 'never', 'required')) reached.add(String(path.state.value));
    assert.deepEqual([...reached].sort(), [...WORKFLOW_NODES].sort());
  });

  // A request for help is the short way to a person: INIT →baseline PLAN →help ESCALATE →hand-off
  // WAIT_HUMAN, three events (failing validation every iteration takes ten).
  it('shortest paths reach each node in the expected number of events', () => {
    const shortest = new Map<string, number>();
    for (const path of enumerate('shortest', 'always', 'always')) {
      const node = String(path.state.value);
      shortest.set(node, Math.min(shortest.get(node) ?? Infinity, path.steps.length - 1));
    }
    assert.deepEqual(Object.fromEntries([...shortest].sort()), {
      CANCELLED: 1,
      CODE: 3,
      DECIDE: 5,
      ESCALATE: 2,
      FAILED: 1,
      INIT: 0,
      PLAN: 1,
      SUCCESS: 6,
      VALIDATE: 4,
      WAIT_DIFF_APPROVAL: 4,
      WAIT_HUMAN: 3,
      WAIT_PLAN_APPROVAL: 2,
    });
  });

  for (const [planPolicy, diffs] of POLICIES) {
    describe(`approval plan=${planPolicy} diffs=${diffs}`, () => {
      it('never waits where the policy says not to', () => {
        const paths = enumerate('simple', planPolicy, diffs);
        const waitedAtPlan = paths.some((p) => nodesOf(p).includes('WAIT_PLAN_APPROVAL'));
        assert.equal(waitedAtPlan, planPolicy === 'always');
        const waits = paths.flatMap((p) => p.steps.filter((s) => s.state.value === 'WAIT_DIFF_APPROVAL').map((s) => s.state));
        const iterationsThatWaited = new Set(waits.map((s) => s.context.iterationCount));
        if (diffs === 'never') assert.equal(iterationsThatWaited.size, 0);
        if (diffs === 'first') {
          // The first iteration, and any later one only while no proposal was accepted (a rejected one uses an iteration).
          assert.ok(iterationsThatWaited.has(1));
          assert.ok(
            waits.every((s) => s.context.iterationCount === 1 || !anyApplied(s)),
            'no wait after a proposal was accepted',
          );
        }
        if (diffs === 'always') assert.ok(iterationsThatWaited.has(2), 'a second iteration waits too');
      });

      it('replays every simple and shortest path on a real actor', async () => {
        const seen = new Set<string>();
        const paths = [...enumerate('simple', planPolicy, diffs), ...enumerate('shortest', planPolicy, diffs)].filter((p) => {
          const key = describePath(p);
          return seen.has(key) ? false : (seen.add(key), true);
        });
        assert.ok(paths.length > 20, `only ${paths.length} paths`);
        for (const path of paths) await replay(path, planPolicy, diffs);
      });
    });
  }
});
