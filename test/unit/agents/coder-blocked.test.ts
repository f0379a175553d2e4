// A coder that says the plan or a test is wrong (a BLOCKED: summary) stops the run at a person,
// with its words, instead of its edits going to validation.

import assert from 'node:assert/strict';
import { CoderBlockedError } from '../../../src/core/agents/coder/plan-scope';
import { EMPTY_USAGE } from '../../../src/core/model';
import { FakeSteps } from '../workflow/fake-steps';
import { StateStream, TempWorkspace, orchestratorOver } from '../workflow/orchestrator-harness';
import { baseline, planOutput, workflow } from '../workflow/samples';

describe('a BLOCKED coder escalates the run', function () {
  this.timeout(15_000);
  let ws: TempWorkspace;
  beforeEach(() => (ws = new TempWorkspace()));
  afterEach(() => ws.remove());

  it("CODE blocked → ESCALATE → WAIT_HUMAN with the coder's reason (not FAILED, nothing validated)", async () => {
    const blocked = new CoderBlockedError('BLOCKED: the test expects 18 for 6 / 3; the test is wrong.', EMPTY_USAGE);
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script('code', { error: blocked });
    const controller = new AbortController();
    const stream = new StateStream(
      orchestratorOver(ws.host, steps).execute(
        'Fix Add',
        workflow({ workspaceRoot: ws.dir, approval: { plan: 'never', diffs: 'never' } }),
        controller.signal,
      ),
    );
    const waiting = await stream.until('WAIT_HUMAN');
    assert.deepEqual(stream.nodes(), ['INIT', 'PLAN', 'CODE', 'ESCALATE', 'WAIT_HUMAN']);
    assert.deepEqual(waiting.metadata.helpRequest, {
      reason: 'The coder stopped and asks you to decide: the test expects 18 for 6 / 3; the test is wrong.',
      from: 'CODE',
    });
    controller.abort();
  });
});
