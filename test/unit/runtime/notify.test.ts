// Webhooks: the payload of each event, the signature a receiver can check, retries with backoff,
// and a run that never waits for a slow receiver.

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { CodingState } from '../../../src/core/model';
import { WebhookNotifier, notifyPayloadFor, runNotifications, signatureOf, tapStates } from '../../../src/core/runtime/notify';
import { startWebhookReceiver } from '../../support/webhook-receiver';

function state(node: CodingState['currentNode'], extra: Partial<CodingState> = {}): CodingState {
  return {
    stateId: 'run-1',
    userRequest: 'Fix the failing Calculator test',
    currentNode: node,
    iterationCount: 1,
    testResult: null,
    ...extra,
  } as CodingState;
}

describe('runtime/notify: signed webhooks', function () {
  this.timeout(20_000);
  const warnings: string[] = [];
  const logger = { warn: (message: string) => warnings.push(message) };
  beforeEach(() => (warnings.length = 0));

  it('a gate is needs_person, the end is run_ended, anything else nothing; a node seen again is no new event', () => {
    assert.deepEqual(notifyPayloadFor(state('WAIT_DIFF_APPROVAL'), 'CODE'), {
      event: 'needs_person',
      runId: 'run-1',
      node: 'WAIT_DIFF_APPROVAL',
      request: 'Fix the failing Calculator test',
      summary: 'Run run-1 waits at WAIT_DIFF_APPROVAL: review the changes.',
      text: 'Ironbees needs you: review the changes — "Fix the failing Calculator test" (run run-1)',
    });
    const ended = notifyPayloadFor(state('SUCCESS', { testResult: { passed: 3, total: 3 } as CodingState['testResult'] }), 'DECIDE');
    assert.equal(ended?.event, 'run_ended');
    assert.equal(ended?.summary, 'Run run-1 ended SUCCESS after 1 iteration(s), tests 3/3 passing.');
    assert.equal(notifyPayloadFor(state('CODE'), 'PLAN'), null);
    assert.equal(notifyPayloadFor(state('WAIT_HUMAN'), 'WAIT_HUMAN'), null);
  });

  it('signs the raw body with HMAC-SHA256 of the secret, retries a failed delivery, and the receiver can verify it', async () => {
    const receiver = await startWebhookReceiver({ failFirst: 2 });
    try {
      const notifier = new WebhookNotifier({ url: receiver.url, secret: 's3cret', logger, backoffMs: 20 });
      const watch = runNotifications(notifier);
      watch(state('WAIT_PLAN_APPROVAL'));
      watch(state('WAIT_PLAN_APPROVAL')); // the same node again: no second event
      watch(state('CANCELLED'));
      await notifier.settled();
      const delivered = receiver.received.filter((h) => h.status === 200);
      assert.deepEqual(delivered.map((h) => (JSON.parse(h.body) as { event: string }).event).sort(), ['needs_person', 'run_ended']);
      for (const hook of delivered) {
        assert.equal(hook.headers['x-ironbees-signature'], `sha256=${createHmac('sha256', 's3cret').update(hook.body).digest('hex')}`);
        assert.equal(hook.headers['content-type'], 'application/json');
      }
      assert.equal(receiver.received.length, 4, 'two failures, then both delivered');
      assert.deepEqual(warnings, []);
      assert.equal(signatureOf('{}', 'k'), `sha256=${createHmac('sha256', 'k').update('{}').digest('hex')}`);
    } finally {
      await receiver.close();
    }
  });

  it('endsOnly (run --yes): no needs_person, only run_ended', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const notifier = new WebhookNotifier({ url: receiver.url, logger });
      const watch = runNotifications(notifier, true);
      watch(state('WAIT_PLAN_APPROVAL'));
      watch(state('WAIT_DIFF_APPROVAL'));
      watch(state('SUCCESS'));
      await notifier.settled();
      assert.deepEqual(
        receiver.received.map((h) => (JSON.parse(h.body) as { event: string; node: string }).node),
        ['SUCCESS'],
      );
    } finally {
      await receiver.close();
    }
  });

  it('gives up after its attempts with one warning naming only the origin, and never holds the states up', async () => {
    const receiver = await startWebhookReceiver({ failFirst: 100 });
    try {
      const notifier = new WebhookNotifier({ url: `${receiver.url}/T0SECRET/B0SECRET`, logger, attempts: 3, backoffMs: 200 });
      async function* states(): AsyncIterable<CodingState> {
        yield state('WAIT_PLAN_APPROVAL');
        yield state('SUCCESS');
      }
      const startedAt = Date.now();
      const seen: string[] = [];
      for await (const s of tapStates(states(), runNotifications(notifier))) seen.push(s.currentNode);
      assert.deepEqual(seen, ['WAIT_PLAN_APPROVAL', 'SUCCESS']);
      assert.ok(Date.now() - startedAt < 200, 'the states came before any retry');
      await notifier.settled();
      assert.equal(receiver.received.length, 6, 'three attempts per event');
      assert.equal(warnings.length, 2);
      assert.match(warnings[0], /^Notification to http:\/\/127\.0\.0\.1:\d+ was not delivered \(HTTP 503\)\.$/);
      assert.ok(!warnings.join('').includes('SECRET'));
    } finally {
      await receiver.close();
    }
  });
});
