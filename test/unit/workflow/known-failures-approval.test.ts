// A person excuses failures, never the model alone: the planner's knownFailures reach the validator
// only when a person approved the plan at the gate. A standing approval (the CLI's --yes, sent as an
// unattended APPROVE unless --accept-known-failures) and plan approval "never" set the list aside,
// and the state, the log and HANDOFF.md say so.

import { strict as assert } from 'node:assert';
import type { Logger } from '../../../src/core/host';
import { createNodeHost } from '../../../src/host/node';
import { FakeSteps } from './fake-steps';
import { StateStream, TempWorkspace, orchestratorOver } from './orchestrator-harness';
import { baseline, codeOutput, passing, plan, usage, workflow } from './samples';

const KNOWN = ['Calc.Tests.Divide_ReturnsQuotient', 'Calc.Tests.Flaky'];
const NOTE =
  'The planner named 2 failing test(s) to leave alone (Calc.Tests.Divide_ReturnsQuotient, Calc.Tests.Flaky), but no person approved the plan ' +
  '(plan approval is "never"), so they were not excused: they must pass like every other test.';

describe("knownFailures count only with a person's approval", function () {
  this.timeout(15_000);
  let ws: TempWorkspace;
  let warnings: string[];
  const logger: Logger = { debug: () => undefined, info: () => undefined, warn: (m) => void warnings.push(m), error: () => undefined };
  beforeEach(() => {
    ws = new TempWorkspace();
    warnings = [];
  });
  afterEach(() => ws.remove());

  function steps(): FakeSteps {
    return new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: { spec: 'Add Negate', plan: { ...plan('Add Negate'), knownFailures: KNOWN }, usage: usage() } })
      .script('code', { output: codeOutput() })
      .script('validate', { output: passing() });
  }

  it('with plan approval "always", the approved plan\'s list reaches the validator', async () => {
    const fake = steps();
    const orchestrator = orchestratorOver(createNodeHost(ws.dir, { logger }), fake);
    const stream = new StateStream(
      orchestrator.execute('Add Negate', workflow({ workspaceRoot: ws.dir, approval: { plan: 'always', diffs: 'never' } })),
    );
    const gate = await stream.until('WAIT_PLAN_APPROVAL');
    await orchestrator.approve(gate.stateId, { type: 'APPROVE' });
    await stream.rest();
    assert.deepEqual(
      fake.inputs.validate.map((input) => input.knownFailures),
      [KNOWN],
    );
    assert.equal(ws.state(gate.stateId).codingState.metadata.ignoredKnownFailures, undefined);
    assert.deepEqual(warnings, []);
    assert.doesNotMatch(ws.runFile(gate.stateId, 'HANDOFF.md') ?? '', /not excused/);
  });

  it('with plan approval "never", the planner\'s list is ignored and the state, the log and HANDOFF.md say so', async () => {
    const fake = steps();
    const orchestrator = orchestratorOver(createNodeHost(ws.dir, { logger }), fake);
    const stream = new StateStream(
      orchestrator.execute('Add Negate', workflow({ workspaceRoot: ws.dir, approval: { plan: 'never', diffs: 'never' } })),
    );
    const nodes = await stream.rest();
    assert.equal(nodes.at(-1), 'SUCCESS');
    const runId = stream.runId;
    assert.deepEqual(
      fake.inputs.validate.map((input) => input.knownFailures),
      [[]],
    );
    assert.equal(ws.state(runId).codingState.metadata.ignoredKnownFailures, NOTE);
    assert.deepEqual(warnings, [NOTE]);
    assert.ok((ws.runFile(runId, 'HANDOFF.md') ?? '').includes(`## Failing tests not excused\n\n${NOTE}\n`));
  });

  it('an unattended APPROVE (--yes) sets the list aside and says --accept-known-failures is the way to accept it', async () => {
    const fake = steps();
    const orchestrator = orchestratorOver(createNodeHost(ws.dir, { logger }), fake);
    const stream = new StateStream(
      orchestrator.execute('Add Negate', workflow({ workspaceRoot: ws.dir, approval: { plan: 'always', diffs: 'never' } })),
    );
    const gate = await stream.until('WAIT_PLAN_APPROVAL');
    await orchestrator.approve(gate.stateId, { type: 'APPROVE', unattended: true });
    await stream.rest();
    const note =
      'The planner named 2 failing test(s) to leave alone (Calc.Tests.Divide_ReturnsQuotient, Calc.Tests.Flaky), but the plan was approved by --yes, ' +
      'which excuses no failing test (--accept-known-failures does), so they were not excused: they must pass like every other test.';
    assert.deepEqual(
      fake.inputs.validate.map((input) => input.knownFailures),
      [[]],
    );
    assert.equal(ws.state(gate.stateId).codingState.metadata.ignoredKnownFailures, note);
    assert.deepEqual(warnings, [note]);
  });
});
