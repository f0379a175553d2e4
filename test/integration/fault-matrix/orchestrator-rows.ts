// Faults around the run itself, in-process over fake steps whose VALIDATE writes the edits through
// the real journal (so the workspace bytes are real): a run killed at every working state and at
// each gate, then resumed by a fresh orchestrator (the stale lock of the dead process taken over);
// a full disk at a checkpoint; power loss while VALIDATE applies; a file changed under review; a
// second run on the same workspace; a model failure that ends the run.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createNodeHost } from '../../../src/host/node';
import type { Host } from '../../../src/core/host';
import type { WorkflowNode } from '../../../src/core/nodes';
import { WorkspaceBusyError } from '../../../src/core/errors';
import { ModelApiError } from '../../../src/core/llm/errors';
import { RunStore } from '../../../src/core/workflow/store';
import { FakeSteps } from '../../unit/workflow/fake-steps';
import type { StepName } from '../../unit/workflow/fake-steps';
import { StateStream, eventually, orchestratorOver } from '../../unit/workflow/orchestrator-harness';
import type { TempWorkspace } from '../../unit/workflow/temp-workspace';
import { baseline, codeOutput, passing, planOutput, workflow } from '../../unit/workflow/samples';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { fillDiskFor, hostLosingPower } from '../../support/fault-matrix/faulty-host';
import { allBytes, workspaceBytes } from '../../support/fault-matrix/ledger';
import { EDITED, leaveStaleLock, seededWorkspace } from './matrix';
import type { FaultRow, RowOutcome } from './matrix';

const REQUEST = 'Fix Add and Mul';
const ALWAYS = { approval: { plan: 'always', diffs: 'always' } } as const;
const NEVER = { approval: { plan: 'never', diffs: 'never' } } as const;
const STEP_AT: Partial<Record<WorkflowNode, StepName>> = { INIT: 'captureBaseline', PLAN: 'plan', CODE: 'code', VALIDATE: 'validate' };

/** The happy path's steps, VALIDATE applying through the real journal; `hold` is left unscripted (it waits). */
function steps(host: Host, hold?: StepName): FakeSteps {
  const store = new RunStore(host);
  const fake = new FakeSteps().onStart('validate', (input) => store.journal.applyEdits(input.stateId, input.edits));
  if (hold !== 'captureBaseline') fake.script('captureBaseline', { output: baseline() });
  if (hold !== 'plan') fake.script('plan', { output: planOutput() });
  if (hold !== 'code') fake.script('code', { output: codeOutput() });
  if (hold !== 'validate') fake.script('validate', { output: passing() });
  return fake;
}

import type { RunOrchestrator } from '../../../src/core/workflow/orchestrator';

function start(
  ws: TempWorkspace,
  host: Host,
  fake: FakeSteps,
  overrides: object = ALWAYS,
): { orchestrator: RunOrchestrator; stream: StateStream; controller: AbortController } {
  const controller = new AbortController();
  const orchestrator = orchestratorOver(host, fake);
  const stream = new StateStream(orchestrator.execute(REQUEST, workflow({ workspaceRoot: ws.dir, ...overrides }), controller.signal));
  return { orchestrator, stream, controller };
}

/** Resumes on a fresh host (the process restarted), approving every gate; returns the nodes seen. */
async function resumeToEnd(dir: string, runId: string): Promise<WorkflowNode[]> {
  const host = createNodeHost(dir);
  const orchestrator = orchestratorOver(host, steps(host));
  const nodes: WorkflowNode[] = [];
  const refused: unknown[] = [];
  for await (const state of orchestrator.resume(runId)) {
    nodes.push(state.currentNode);
    if (state.currentNode.startsWith('WAIT_'))
      orchestrator.approve(runId, { type: 'APPROVE' }).catch((error: unknown) => refused.push(error));
  }
  assert.deepEqual(refused, []);
  return nodes;
}

/** Pulls states until `node`, approving the gates before it. */
async function runUntil(orchestrator: RunOrchestrator, stream: StateStream, node: WorkflowNode): Promise<string> {
  for (;;) {
    const state = await stream.next();
    if (state.currentNode === node) return state.stateId;
    if (state.currentNode.startsWith('WAIT_')) await orchestrator.approve(state.stateId, { type: 'APPROVE' });
  }
}

/** The run is killed while at `node`, leaving its lock behind; a new process resumes it. */
async function killAt(node: WorkflowNode): Promise<RowOutcome> {
  const { ws, before } = seededWorkspace();
  const step = STEP_AT[node];
  const first = steps(ws.host, step);
  const { orchestrator, stream, controller } = start(ws, ws.host, first);
  const runId = await runUntil(orchestrator, stream, node);
  if (step) await eventually(() => first.calls(step) === 1, `${step} started`);
  controller.abort();
  assert.ok(await stream.ends(), 'the killed run yields nothing more');
  assert.equal(ws.state(runId).codingState.currentNode, node, 'state.json holds the state the run was killed at');
  leaveStaleLock(ws.dir, runId);
  const nodes = await resumeToEnd(ws.dir, runId);
  assert.equal(nodes[0], node, 'the resumed run starts where it was killed');
  return { end: nodes.at(-1) as string, workspace: { dir: ws.dir, before, changes: EDITED } };
}

const KILLED_AT: WorkflowNode[] = ['INIT', 'PLAN', 'WAIT_PLAN_APPROVAL', 'CODE', 'WAIT_DIFF_APPROVAL', 'VALIDATE'];

export const orchestratorRows: FaultRow[] = [
  ...KILLED_AT.map((node, index): FaultRow => ({
    id: `K${index + 1}`,
    fault: 'process killed, then resumed by a new process',
    injectedAt: node,
    expectedEnd: 'SUCCESS',
    run: () => killAt(node),
  })),
  {
    id: 'D2',
    fault: 'full disk at a checkpoint (CODE → VALIDATE), then space freed and resumed',
    injectedAt: 'orchestrator checkpoint → state.json',
    expectedEnd: 'error ENOSPC; resumed SUCCESS',
    run: async () => {
      const { ws, before } = seededWorkspace();
      const first = new FakeSteps().script('captureBaseline', { output: baseline() }).script('plan', { output: planOutput() });
      const { orchestrator, stream, controller } = start(ws, ws.host, first, NEVER);
      const runId = await runUntil(orchestrator, stream, 'CODE');
      await eventually(() => first.calls('code') === 1, 'the coder started');
      const stateFile = path.join(ws.dir, '.ironbees/runs', runId, 'state.json');
      await eventually(() => ws.state(runId).codingState.currentNode === 'CODE', 'CODE saved');
      const atCode = fs.readFileSync(stateFile);
      const restore = fillDiskFor(/state\.json\.[^/\\]*\.tmp$/);
      let end: string;
      try {
        first.script('code', { output: codeOutput() });
        end = await stream.next().then(
          (state) => `no error (${state.currentNode})`,
          (error: NodeJS.ErrnoException) => `error ${error.code ?? error.message}`,
        );
      } finally {
        restore();
        controller.abort();
      }
      assert.deepEqual(fs.readFileSync(stateFile), atCode, 'state.json is still the CODE checkpoint, byte for byte');
      leaveStaleLock(ws.dir, runId);
      const nodes = await resumeToEnd(ws.dir, runId);
      return { end: `${end}; resumed ${nodes.at(-1)}`, workspace: { dir: ws.dir, before, changes: EDITED } };
    },
  },
  {
    id: 'W5',
    fault: 'power loss while VALIDATE applies the edits, then resumed',
    injectedAt: 'journal.applyEdits: 2nd workspace write (all writes fail after)',
    expectedEnd: 'SUCCESS',
    run: async () => {
      const { ws, before } = seededWorkspace();
      let seen = 0;
      const dying = hostLosingPower(ws.host, (absPath) => !absPath.startsWith(path.join(ws.dir, '.ironbees')) && seen++ === 1);
      const { stream } = start(ws, dying, steps(dying), NEVER);
      const runId = (await stream.next()).stateId;
      await assert.rejects(stream.rest(), /power lost/);
      assert.ok(
        fs.existsSync(path.join(ws.dir, '.ironbees/runs', runId, 'edits/apply-intent.json')),
        'the apply was recorded before the first write',
      );
      leaveStaleLock(ws.dir, runId);
      const nodes = await resumeToEnd(ws.dir, runId);
      return { end: nodes.at(-1) as string, workspace: { dir: ws.dir, before, changes: EDITED } };
    },
  },
  {
    id: 'R1',
    fault: 'a person edits a file while the diff waits for review',
    injectedAt: 'WAIT_DIFF_APPROVAL',
    expectedEnd: "WAIT_DIFF_APPROVAL again, on the person's version; then CANCELLED",
    run: async () => {
      const { ws, before } = seededWorkspace();
      const fake = steps(ws.host);
      const { orchestrator, stream } = start(ws, ws.host, fake);
      const runId = await runUntil(orchestrator, stream, 'WAIT_DIFF_APPROVAL');
      const mine = 'class Calc { /* the person’s own version */ }\n';
      ws.write('src/Calc.cs', mine);
      // The coder is asked again, told that nothing was applied, and proposes on top of the person's text.
      fake.script('code', { output: codeOutput([makeFileEdit('src/Calc.cs', mine, `${mine}// on top of yours\n`)]) });
      await orchestrator.approve(runId, { type: 'APPROVE' });
      const again = await stream.until('WAIT_DIFF_APPROVAL');
      assert.match(fake.inputs.code[1]?.errorContext?.text ?? '', /NOT applied: the person edited src\/Calc\.cs/);
      assert.deepEqual(
        (again.metadata.attempts as { outcome: string }[]).map((attempt) => attempt.outcome),
        ['not applied'],
      );
      await orchestrator.cancel(runId);
      const nodes = await stream.rest();
      return {
        end: `WAIT_DIFF_APPROVAL again, on the person's version; then ${nodes.at(-1)}`,
        workspace: { dir: ws.dir, before, changes: { 'src/Calc.cs': mine } },
      };
    },
  },
  {
    id: 'L1',
    fault: 'a second run starts on the workspace while one is active',
    injectedAt: 'execute() while the first run is at PLAN',
    expectedEnd: 'refused WorkspaceBusyError; first SUCCESS',
    run: async () => {
      const { ws, before } = seededWorkspace();
      const first = steps(ws.host, 'plan');
      const { stream } = start(ws, ws.host, first, NEVER);
      await stream.until('PLAN');
      const snapshot = allBytes(ws.dir);
      const second = start(ws, ws.host, steps(ws.host), NEVER);
      const refused = await second.stream.next().then(
        () => 'started',
        (error: Error) => (error instanceof WorkspaceBusyError ? 'refused WorkspaceBusyError' : String(error)),
      );
      assert.deepEqual(allBytes(ws.dir), snapshot, 'the refused run changed no byte, .ironbees included');
      first.script('plan', { output: planOutput() });
      const nodes = await stream.rest();
      return { end: `${refused}; first ${nodes.at(-1)}`, workspace: { dir: ws.dir, before, changes: EDITED } };
    },
  },
  {
    id: 'M9',
    fault: 'the model stays overloaded past the retries during PLAN',
    injectedAt: 'plan step',
    expectedEnd: 'FAILED',
    run: async () => {
      const { ws, before } = seededWorkspace();
      const fake = new FakeSteps().script('captureBaseline', { output: baseline() }).script('plan', {
        error: new ModelApiError('overloaded', 'The API is overloaded (529) even after retries. Try again later.', 529),
      });
      const { stream } = start(ws, ws.host, fake, NEVER);
      const nodes = await stream.rest();
      assert.match(JSON.stringify(ws.state(stream.runId).codingState), /overloaded \(529\) even after retries/);
      assert.equal(workspaceBytes(ws.dir).size, 3);
      return { end: nodes.at(-1) as string, workspace: { dir: ws.dir, before, changes: {} } };
    },
  },
];
