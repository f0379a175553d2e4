// The same failing tool call repeated: said so in the 2nd result, the 3rd stops the step as stuck,
// and the run escalates (a person may give it a hint) instead of failing.

import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { runPlanner } from '../../../src/core/agents/planner/runner';
import { StuckError, repeatNote } from '../../../src/core/agents/loop-detector';
import type { ToolResultBlock } from '../../../src/core/llm/port';
import { ScriptedModelClient, modelTurn, toolUseBlock } from '../../../src/core/llm/scripted';
import { FakeSteps } from '../workflow/fake-steps';
import { StateStream, TempWorkspace, orchestratorOver } from '../workflow/orchestrator-harness';
import { baseline, workflow } from '../workflow/samples';
import { agentRuntime, copyCalculator } from './agent-harness';

function lastResults(messages: ReadonlyArray<{ content: unknown }>): ToolResultBlock[] {
  return messages.at(-1)?.content as ToolResultBlock[];
}

describe('loop detection', function () {
  this.timeout(15_000);
  let root: string;
  beforeEach(async () => {
    root = await copyCalculator();
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('the planner reading the same missing file: noted the 2nd time, stuck the 3rd; other failures do not count', async () => {
    const model = new ScriptedModelClient([
      modelTurn([toolUseBlock('read_file', { path: 'src/Missing.cs', offset: 1 })]),
      // Another failing call in between: different arguments, its own count.
      modelTurn([toolUseBlock('read_file', { path: 'src/Other.cs' })]),
      // The same call, keys in another order.
      modelTurn([toolUseBlock('read_file', { offset: 1, path: 'src/Missing.cs' })]),
      modelTurn([toolUseBlock('read_file', { path: 'src/Missing.cs', offset: 1 })]),
    ]);
    const rt = await agentRuntime(root, model);
    await assert.rejects(runPlanner(rt, { request: 'Fix Divide' }), (error: unknown) => {
      assert.ok(error instanceof StuckError);
      assert.equal(error.code, 'STUCK');
      assert.match(
        error.message,
        /^planner is stuck: it called read_file 3 times with the same arguments and got the same error each time: /,
      );
      return true;
    });
    assert.equal(model.requests.length, 4);
    const first = lastResults(model.requests[1].messages)[0];
    const other = lastResults(model.requests[2].messages)[0];
    const second = lastResults(model.requests[3].messages)[0];
    assert.equal(first.is_error, true);
    assert.ok(!first.content.includes('already made this exact'));
    assert.ok(!other.content.includes('already made this exact'));
    assert.equal(second.content, first.content + repeatNote('read_file'));
  });
});

describe('a stuck step escalates the run', function () {
  this.timeout(15_000);
  let ws: TempWorkspace;
  beforeEach(() => (ws = new TempWorkspace()));
  afterEach(() => ws.remove());

  it('PLAN stuck → ESCALATE → WAIT_HUMAN with the reason in the state and HANDOFF.md (not FAILED)', async () => {
    const stuck = new StuckError('planner', 'read_file', 'File src/Missing.cs does not exist.');
    const steps = new FakeSteps().script('captureBaseline', { output: baseline() }).script('plan', { error: stuck });
    const controller = new AbortController();
    const stream = new StateStream(
      orchestratorOver(ws.host, steps).execute('Fix Add', workflow({ workspaceRoot: ws.dir }), controller.signal),
    );
    const waiting = await stream.until('WAIT_HUMAN');
    assert.deepEqual(stream.nodes(), ['INIT', 'PLAN', 'ESCALATE', 'WAIT_HUMAN']);
    assert.deepEqual(waiting.metadata.helpRequest, { reason: stuck.message, from: 'PLAN' });
    assert.match(
      ws.runFile(waiting.stateId, 'HANDOFF.md') ?? '',
      /Help was requested during PLAN: planner is stuck: it called read_file 3 times/,
    );
    controller.abort();
  });
});
