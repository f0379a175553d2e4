// The supervisor on a real run (issue 29): the real CLI on a copy of the calculator fixture (real
// dotnet, the real Anthropic SDK against a scripted local fake). A coder whose model call hangs is
// stopped at --agent-timeout and restarted with a continuation context; three hangs in a row ask a
// person. The run's coordination records (the ones `ironbees mcp`'s apmas_* tools read) show the
// run's own agents. Nothing here waits on a clock: each case waits for the run to end.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { hang, toolUse } from '../support/fake-anthropic';
import type { FakeRequest } from '../support/fake-anthropic';
import { readRunFile, traceEvents } from '../support/cli-harness';
import type { CliResult } from '../support/cli-harness';
import { cliRunWithFake } from '../support/cli-with-fake';
import { CoordinationStore } from '../../src/mcp-server/coordination-store';
import { apmasTools } from '../../src/mcp-server/apmas-tools';
import { createNodeHost } from '../../src/host/node';
import { escalationReason } from '../../src/core/agents/supervisor/policy';

const SOURCE = 'src/Calculator/Calculator.cs';
const PLAN = {
  spec: 'Calc.Divide returns the quotient a / b.',
  plan: {
    summary: 'Fix the wrong operator in Calc.Divide.',
    steps: [{ number: 1, description: 'Return a / b', actionType: 'MODIFY', filePath: SOURCE, rationale: 'The test expects 6 / 3 = 2' }],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};
const LAST_WORDS = 'Divide multiplies; I switch it to a division and then check the rest of the file.';

function firstUserText(request: FakeRequest): string {
  const first = request.body.messages[0];
  return typeof first.content === 'string'
    ? first.content
    : first.content.map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n');
}

describe('ironbees CLI: --agent-timeout, the supervisor of a silent agent (real dotnet, real SDK, fake Messages API)', function () {
  this.timeout(420_000);
  const cli = cliRunWithFake();

  const run = (): Promise<CliResult> =>
    cli.run(['run', 'Fix the failing Calculator test', '--workspace', cli.workspace, '--yes', '--json', '--agent-timeout', '2']);

  it('a coder whose model call hangs is stopped, restarted with what it had done, its staged file and its last words, and the run succeeds', async () => {
    const { fake, workspace } = cli;
    fake.enqueue(
      toolUse('submit_plan', PLAN),
      toolUse(
        'str_replace_based_edit_tool',
        { command: 'str_replace', path: SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' },
        { text: LAST_WORDS },
      ),
      hang('start'),
      toolUse('submit_changes', { summary: 'Divide now divides.' }),
    );
    const result = await run();
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.states.at(-1)?.currentNode, 'SUCCESS');
    const runId = result.states[0].stateId;

    // The restarted coder's first message: the continuation context, then its task as before.
    assert.equal(fake.requests.length, 4);
    const restarted = firstUserText(fake.requests[3]);
    assert.ok(restarted.startsWith('# Continuation context\n\nYou were interrupted: you (the coder) were working'), restarted);
    assert.ok(restarted.includes(`## Files you had staged (they still hold your changes)\n\n- ${SOURCE}\n`), restarted);
    assert.ok(restarted.includes(`## Your last words\n\n${LAST_WORDS}\n`), restarted);
    assert.match(restarted, /## What you had done\n\n- .*src\/Calculator\/Calculator\.cs/);
    assert.ok(restarted.includes('# Approved plan'), restarted);
    // The first coder call had none of it.
    assert.ok(!firstUserText(fake.requests[1]).includes('interrupted'));

    const events = traceEvents(workspace, runId);
    const timeouts = events.filter((event) => event.kind === 'agent_timeout');
    const restarts = events.filter((event) => event.kind === 'agent_restarted');
    assert.equal(timeouts.length, 1);
    assert.equal(restarts.length, 1);
    const { at: timedOutAt, seq: timedOutSeq, ...timeout } = timeouts[0];
    assert.equal(typeof timedOutAt, 'string');
    assert.equal(typeof timedOutSeq, 'number');
    assert.deepEqual(timeout, { kind: 'agent_timeout', agent: 'coder', timeout: 1, silentMs: 2000, action: 'restart_with_context' });
    const { at: restartedAt, seq: restartedSeq, ...restart } = restarts[0];
    assert.equal(typeof restartedAt, 'string');
    assert.equal(restartedSeq, Number(timedOutSeq) + 1);
    assert.deepEqual(restart, { kind: 'agent_restarted', agent: 'coder', attempt: 2, mode: 'continuation', stagedFiles: [SOURCE] });
    // The CLI said it.
    assert.ok(result.stderr.includes('coder ✕ silent for 2 s: stopped and restarted (with its progress; attempt 2)'), result.stderr);
    assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /return a \/ b;/);

    // One coordination model: the APMAS tools read the run's own agents, their heartbeats, the checkpoint and the messages.
    const tools = apmasTools(new CoordinationStore(createNodeHost(workspace)));
    const getContext = tools.find((tool) => tool.name === 'apmas_get_context');
    assert.ok(getContext);
    const outcome = await getContext.execute(
      { runId, agent: 'person', include: ['agents', 'checkpoints', 'messages'], messageLimit: 50 },
      {} as never,
    );
    assert.equal(outcome.ok, true);
    const context = outcome.data as {
      agents: Record<string, { status: string; lastHeartbeat?: string; artifacts: string[]; completedAt?: string; summary?: string }>;
      checkpoints: Array<{ agent: string; activeFiles: string[]; notes: string | null }>;
      messages: Array<{ from: string; to: string; type: string }>;
    };
    assert.deepEqual(Object.keys(context.agents).sort(), ['coder', 'planner']);
    assert.equal(context.agents.planner.status, 'completed');
    assert.equal(context.agents.coder.status, 'completed');
    assert.equal(context.agents.coder.summary?.startsWith('Divide now divides.'), true);
    assert.deepEqual(context.agents.coder.artifacts, [SOURCE]);
    for (const agent of ['planner', 'coder']) assert.ok(!Number.isNaN(Date.parse(context.agents[agent].lastHeartbeat ?? '')), agent);
    assert.deepEqual(
      context.checkpoints.map((checkpoint) => [checkpoint.agent, checkpoint.activeFiles, checkpoint.notes]),
      [['coder', [SOURCE], LAST_WORDS]],
    );
    assert.deepEqual(
      context.messages.map((message) => [message.from, message.to, message.type]),
      [['supervisor', 'coder', 'timeout:restart_with_context']],
    );
  });

  it('three hangs in a row: restarted with its progress, then on a reduced scope, then the run asks a person with the reason', async () => {
    const { fake, workspace } = cli;
    fake.enqueue(toolUse('submit_plan', PLAN), hang('nothing'), hang('start'), hang('start'));
    const result = await run();
    // --yes: an escalation ends the run (exit 3), waiting for a person.
    assert.equal(result.code, 3, result.stderr);
    const final = result.states.at(-1);
    assert.equal(final?.currentNode, 'WAIT_HUMAN');
    const runId = result.states[0].stateId;
    const reason = escalationReason('coder', 2, 3, []);
    assert.deepEqual((final?.metadata as { helpRequest?: unknown }).helpRequest, { reason, from: 'CODE' });
    assert.ok(readRunFile(workspace, runId, 'HANDOFF.md').includes(reason));

    assert.equal(fake.requests.length, 4);
    assert.ok(firstUserText(fake.requests[2]).startsWith('# Continuation context\n\nYou were interrupted'));
    assert.ok(firstUserText(fake.requests[3]).startsWith('# Restarted with a reduced scope\n\n'));

    const events = traceEvents(workspace, runId);
    assert.deepEqual(
      events.filter((event) => event.kind === 'agent_timeout').map((event) => [event.agent, event.timeout, event.action]),
      [
        ['coder', 1, 'restart_with_context'],
        ['coder', 2, 'restart_reduced_scope'],
        ['coder', 3, 'escalate'],
      ],
    );
    assert.deepEqual(
      events.filter((event) => event.kind === 'agent_restarted').map((event) => [event.agent, event.attempt, event.mode]),
      [
        ['coder', 2, 'continuation'],
        ['coder', 3, 'reduced_scope'],
      ],
    );
    const agents = JSON.parse(readRunFile(workspace, runId, path.join('coordination', 'agents.json'))) as Record<
      string,
      { status: string; message?: string }
    >;
    assert.equal(agents.coder.status, 'escalated');
    assert.equal(agents.coder.message, reason);
    assert.ok(
      !existsSync(path.join(workspace, '.ironbees', 'coordination')),
      'the run writes its own records, not the workspace-wide ones',
    );
  });
});
