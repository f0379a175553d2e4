// The editor's webhooks (webhook-notices.ts) in a real extension host: with `ironbees.notify.webhook`
// in the user settings and IRONBEES_NOTIFY_SECRET in the host's environment, a demo run posts signed
// needs_person at the plan and diff gates and run_ended at SUCCESS to a local receiver.

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import * as vscode from 'vscode';
import type { CodingState } from '../../../src/core/model';
import { startWebhookReceiver } from '../../support/webhook-receiver';
import type { WebhookReceiver } from '../../support/webhook-receiver';
import { SOURCE, TARGET, ironbees, readWorkspaceFile, setUserSetting } from './helpers';

const SECRET = 'editor-suite-secret';

describe('webhooks from the editor (real extension host)', function () {
  this.timeout(300_000);
  const original = readWorkspaceFile(SOURCE);
  let receiver: WebhookReceiver;
  let runId = '';

  before(async () => {
    receiver = await startWebhookReceiver();
    process.env.IRONBEES_NOTIFY_SECRET = SECRET;
    await setUserSetting('notify.webhook', receiver.url);
  });

  after(async () => {
    await setUserSetting('notify.webhook', undefined);
    delete process.env.IRONBEES_NOTIFY_SECRET;
    if (runId) await vscode.commands.executeCommand('ironbees.revertRun', runId).then(undefined, () => undefined);
    await receiver.close();
    assert.equal(readWorkspaceFile(SOURCE), original);
  });

  it('posts signed needs_person at each gate and run_ended at the end', async () => {
    const { controller } = await ironbees();
    const request = 'Fix the failing Calculator test';
    const first = (await vscode.commands.executeCommand('ironbees.runAgent', request, TARGET)) as CodingState | undefined;
    assert.ok(first);
    runId = first.stateId;
    assert.equal((await controller.waitFor(['WAIT_PLAN_APPROVAL', 'FAILED'])).currentNode, 'WAIT_PLAN_APPROVAL');
    await receiver.waitFor((hook) => hook.body.includes('"WAIT_PLAN_APPROVAL"'));
    await vscode.commands.executeCommand('ironbees.approvePlan');
    assert.equal((await controller.waitFor(['WAIT_DIFF_APPROVAL', 'FAILED'])).currentNode, 'WAIT_DIFF_APPROVAL');
    await receiver.waitFor((hook) => hook.body.includes('"WAIT_DIFF_APPROVAL"'));
    await vscode.commands.executeCommand('ironbees.acceptAll');
    await vscode.commands.executeCommand('ironbees.submitReview');
    const done = await controller.waitFor(['SUCCESS', 'FAILED', 'WAIT_HUMAN'], 240_000);
    assert.equal(done.currentNode, 'SUCCESS', JSON.stringify(done.testResult));
    await receiver.waitFor((hook) => hook.body.includes('"run_ended"'));

    const bodies = receiver.received.map((hook) => JSON.parse(hook.body) as Record<string, unknown>);
    assert.deepEqual(
      bodies.map((body) => [body.event, body.runId, body.node, body.request]),
      [
        ['needs_person', runId, 'WAIT_PLAN_APPROVAL', request],
        ['needs_person', runId, 'WAIT_DIFF_APPROVAL', request],
        ['run_ended', runId, 'SUCCESS', request],
      ],
    );
    for (const hook of receiver.received) {
      assert.equal(hook.headers['x-ironbees-signature'], `sha256=${createHmac('sha256', SECRET).update(hook.body).digest('hex')}`);
    }
  });
});
