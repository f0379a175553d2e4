// `ironbees resume` sends the same signed webhooks as `run`: the real CLI, real dotnet, the demo model
// and a local receiver. A demo run stopped at its plan gate is resumed twice: without --yes (EOF at
// the prompt) it posts needs_person at the gate, from --notify-webhook; with --yes it posts only
// run_ended, from IRONBEES_NOTIFY_WEBHOOK.

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { copyFixture, ensureCliBuilt, removeDir, runCli } from '../support/cli-harness';
import { startWebhookReceiver } from '../support/webhook-receiver';
import type { WebhookReceiver } from '../support/webhook-receiver';

const SECRET = 'resume-secret';

function signed(body: string): string {
  return `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
}

describe('ironbees resume --notify-webhook (real CLI, real dotnet, demo model)', function () {
  this.timeout(600_000);
  let receiver: WebhookReceiver;
  let workspace: string;

  before(async () => {
    ensureCliBuilt();
    receiver = await startWebhookReceiver();
    workspace = copyFixture('calculator');
  });
  after(async () => {
    await receiver?.close();
    removeDir(workspace);
  });

  it('posts needs_person at the gate it resumes into, and run_ended when the resumed run ends', async () => {
    const request = 'Fix the failing Calculator test';
    // Stopped at the plan gate with no webhook: nothing is posted.
    const first = await runCli(['run', request, '--workspace', workspace, '--demo', '--json'], {}, '');
    assert.equal(first.code, 130, first.stderr);
    const runId = first.states.at(-1)?.stateId ?? '';
    assert.equal(first.states.at(-1)?.currentNode, 'WAIT_PLAN_APPROVAL');
    assert.equal(receiver.received.length, 0);

    const waiting = await runCli(
      ['resume', runId, '--workspace', workspace, '--json', '--notify-webhook', receiver.url],
      { IRONBEES_NOTIFY_SECRET: SECRET },
      '',
    );
    assert.equal(waiting.code, 130, waiting.stderr);
    assert.equal(receiver.received.length, 1, receiver.received.map((h) => h.body).join('\n'));
    const [gate] = receiver.received;
    assert.equal(gate.headers['x-ironbees-signature'], signed(gate.body));
    assert.deepEqual(JSON.parse(gate.body), {
      event: 'needs_person',
      runId,
      node: 'WAIT_PLAN_APPROVAL',
      request,
      summary: `Run ${runId} waits at WAIT_PLAN_APPROVAL: review the plan.`,
      text: `Ironbees needs you: review the plan — "${request}" (run ${runId})`,
    });

    const ended = await runCli(['resume', runId, '--workspace', workspace, '--yes', '--json'], {
      IRONBEES_NOTIFY_WEBHOOK: receiver.url,
      IRONBEES_NOTIFY_SECRET: SECRET,
    });
    assert.equal(ended.code, 0, ended.stderr);
    assert.equal(ended.states.at(-1)?.currentNode, 'SUCCESS');
    // --yes answers the gates: the only new hook is the end, delivered before the process exited.
    assert.equal(receiver.received.length, 2, receiver.received.map((h) => h.body).join('\n'));
    const end = receiver.received[1];
    assert.equal(end.headers['x-ironbees-signature'], signed(end.body));
    const body = JSON.parse(end.body) as Record<string, unknown>;
    assert.deepEqual([body.event, body.runId, body.node, body.request], ['run_ended', runId, 'SUCCESS', request]);
    assert.match(String(body.summary), new RegExp(`^Run ${runId} ended SUCCESS after \\d+ iteration\\(s\\), tests \\d+/\\d+ passing\\.$`));
  });
});
