// The editor's webhooks: a followed run's states become the exact signed payloads `ironbees run`
// posts, at a local receiver; a run shown from disk, a repeated node and an empty or bad setting post
// nothing; the setting is read at each event.

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { CodingState } from '../../../src/core/model';
import { WebhookNotices } from '../../../src/extension/webhook-notices';
import { startWebhookReceiver } from '../../support/webhook-receiver';
import type { WebhookReceiver } from '../../support/webhook-receiver';

const REQUEST = 'Fix the failing Calculator test';

function state(node: CodingState['currentNode'], extra: Partial<CodingState> = {}): CodingState {
  return { stateId: 'run-7', userRequest: REQUEST, currentNode: node, iterationCount: 2, testResult: null, ...extra } as CodingState;
}

/** A stand-in for the controller's onDidChangeState. */
function stateStream(): {
  event: (listener: (s: CodingState | null) => void) => { dispose(): void };
  fire: (s: CodingState | null) => void;
} {
  const listeners = new Set<(s: CodingState | null) => void>();
  return {
    event: (listener) => {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    fire: (s) => listeners.forEach((listener) => listener(s)),
  };
}

describe('extension/webhook-notices: the editor posts signed webhooks', function () {
  this.timeout(20_000);
  let receiver: WebhookReceiver;
  const warnings: string[] = [];
  beforeEach(async () => {
    warnings.length = 0;
    receiver = await startWebhookReceiver();
  });
  afterEach(() => receiver.close());

  function notices(options: { url: () => string; live?: () => boolean; secret?: string }) {
    const stream = stateStream();
    const subject = new WebhookNotices({
      onDidChangeState: stream.event as never,
      isLive: options.live ?? (() => true),
      webhookUrl: options.url,
      env: options.secret ? { IRONBEES_NOTIFY_SECRET: options.secret } : {},
      logger: { warn: (message) => warnings.push(message) },
      retry: { attempts: 2, backoffMs: 10 },
    });
    return { stream, subject };
  }

  it('a live run: needs_person at each gate entered, run_ended at the end, exact payloads, verified signatures', async () => {
    const { stream, subject } = notices({ url: () => receiver.url, secret: 'editor-secret' });
    stream.fire(state('PLAN'));
    stream.fire(state('WAIT_PLAN_APPROVAL'));
    stream.fire(state('WAIT_PLAN_APPROVAL')); // usage moved, same node: nothing new
    stream.fire(state('CODE'));
    stream.fire(state('WAIT_DIFF_APPROVAL'));
    stream.fire(null);
    stream.fire(state('SUCCESS', { testResult: { passed: 4, total: 4 } as CodingState['testResult'] }));
    await subject.settled();
    const bodies = receiver.received.map((hook) => JSON.parse(hook.body) as Record<string, unknown>);
    bodies.sort((a, b) => String(a.node).localeCompare(String(b.node)));
    assert.deepEqual(bodies, [
      {
        event: 'run_ended',
        runId: 'run-7',
        node: 'SUCCESS',
        request: REQUEST,
        summary: 'Run run-7 ended SUCCESS after 2 iteration(s), tests 4/4 passing.',
        text: `Ironbees run SUCCESS: "${REQUEST}" (run run-7), tests 4/4 passing`,
      },
      {
        event: 'needs_person',
        runId: 'run-7',
        node: 'WAIT_DIFF_APPROVAL',
        request: REQUEST,
        summary: 'Run run-7 waits at WAIT_DIFF_APPROVAL: review the changes.',
        text: `Ironbees needs you: review the changes — "${REQUEST}" (run run-7)`,
      },
      {
        event: 'needs_person',
        runId: 'run-7',
        node: 'WAIT_PLAN_APPROVAL',
        request: REQUEST,
        summary: 'Run run-7 waits at WAIT_PLAN_APPROVAL: review the plan.',
        text: `Ironbees needs you: review the plan — "${REQUEST}" (run run-7)`,
      },
    ]);
    for (const hook of receiver.received) {
      assert.equal(hook.headers['x-ironbees-signature'], `sha256=${createHmac('sha256', 'editor-secret').update(hook.body).digest('hex')}`);
      assert.equal(hook.headers['content-type'], 'application/json');
    }
    assert.deepEqual(warnings, []);
    subject.dispose();
  });

  it('a run shown from disk posts nothing, nor does it when it is then resumed at the gate it showed', async () => {
    let live = false;
    const { stream, subject } = notices({ url: () => receiver.url, live: () => live });
    stream.fire(state('WAIT_PLAN_APPROVAL'));
    live = true;
    stream.fire(state('WAIT_PLAN_APPROVAL'));
    stream.fire(state('CANCELLED'));
    await subject.settled();
    assert.deepEqual(
      receiver.received.map((hook) => [JSON.parse(hook.body).event, JSON.parse(hook.body).node, hook.headers['x-ironbees-signature']]),
      [['run_ended', 'CANCELLED', undefined]],
    );
    subject.dispose();
  });

  it('reads the setting at each event: empty posts nothing, a bad URL is one warning, disposed listens no more', async () => {
    let url = '';
    const { stream, subject } = notices({ url: () => url });
    stream.fire(state('WAIT_PLAN_APPROVAL'));
    url = 'file:///etc/passwd';
    stream.fire(state('CODE'));
    stream.fire(state('WAIT_DIFF_APPROVAL'));
    stream.fire(state('WAIT_HUMAN'));
    assert.deepEqual(warnings, ['Ignoring ironbees.notify.webhook: it is not an http(s) URL.']);
    url = receiver.url;
    stream.fire(state('FAILED'));
    await subject.settled();
    assert.deepEqual(
      receiver.received.map((hook) => JSON.parse(hook.body).node),
      ['FAILED'],
    );
    subject.dispose();
    stream.fire(state('WAIT_PLAN_APPROVAL', { stateId: 'run-8' }));
    await subject.settled();
    assert.equal(receiver.received.length, 1);
  });

  it('never holds the states up: a dead receiver costs the run nothing and ends in one warning per event', async () => {
    const dead = await startWebhookReceiver({ failFirst: 100 });
    try {
      const { stream, subject } = notices({ url: () => `${dead.url}/T0/SECRETPATH` });
      const startedAt = Date.now();
      stream.fire(state('WAIT_PLAN_APPROVAL'));
      stream.fire(state('SUCCESS'));
      assert.ok(Date.now() - startedAt < 50, 'the listener returned before any delivery');
      await subject.settled();
      assert.equal(dead.received.length, 4, 'two attempts per event');
      assert.equal(warnings.length, 2);
      assert.ok(!warnings.join('').includes('SECRETPATH'));
      subject.dispose();
    } finally {
      await dead.close();
    }
  });
});
