import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { ReadyGate } from '../../../src/extension/webview/ready-gate';

/** A promise the test resolves by hand, to hold a snapshot "in the middle of gathering". */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('ReadyGate (when the panel may be posted to)', () => {
  it('drops what is posted before `ready`: the snapshot covers it', async () => {
    const sent: string[] = [];
    const gate = new ReadyGate<string>((m) => sent.push(m));
    gate.post('state v1');
    assert.equal(sent.length, 0);
    assert.equal(await gate.open(async () => ['snapshot']), true);
    gate.post('state v2');
    assert.deepEqual(sent, ['snapshot', 'state v2']);
  });

  it('sends a state posted while the snapshot is gathered after the snapshot, so the older snapshot cannot overwrite it', async () => {
    const sent: string[] = [];
    const gate = new ReadyGate<string>((m) => sent.push(m));
    const gathering = deferred<string[]>();
    const opened = gate.open(() => gathering.promise);
    // The run moves on while the snapshot waits for the history on disk.
    gate.post('state WAIT_DIFF_APPROVAL');
    gate.post('notice');
    assert.equal(sent.length, 0, 'nothing goes out before the snapshot');
    assert.equal(gate.isOpen, false);
    gathering.resolve(['settings', 'state WAIT_PLAN_APPROVAL', 'history']);
    assert.equal(await opened, true);
    assert.deepEqual(sent, ['settings', 'state WAIT_PLAN_APPROVAL', 'history', 'state WAIT_DIFF_APPROVAL', 'notice']);
    assert.equal(sent.filter((m) => m.startsWith('state')).at(-1), 'state WAIT_DIFF_APPROVAL', 'the newest state is the last one');
    assert.equal(gate.isOpen, true);
  });

  it('does not send a snapshot gathered for an older `ready` (the page reloaded again)', async () => {
    const sent: string[] = [];
    const gate = new ReadyGate<string>((m) => sent.push(m));
    const first = deferred<string[]>();
    const firstOpen = gate.open(() => first.promise);
    const secondOpen = gate.open(async () => ['second snapshot']);
    assert.equal(await secondOpen, true);
    first.resolve(['first snapshot']);
    assert.equal(await firstOpen, false);
    assert.deepEqual(sent, ['second snapshot']);
  });

  it('sends nothing once closed (the view was hidden) while a snapshot was gathered', async () => {
    const sent: string[] = [];
    const gate = new ReadyGate<string>((m) => sent.push(m));
    const gathering = deferred<string[]>();
    const opened = gate.open(() => gathering.promise);
    gate.post('held');
    gate.close();
    gathering.resolve(['snapshot']);
    assert.equal(await opened, false);
    gate.post('after close');
    assert.equal(sent.length, 0);
  });

  it('still opens when the snapshot fails, sends what was held, and reports the failure', async () => {
    const sent: string[] = [];
    const gate = new ReadyGate<string>((m) => sent.push(m));
    const gathering = deferred<string[]>();
    const opened = gate.open(() => gathering.promise);
    gate.post('state');
    gathering.reject(new Error('disk gone'));
    await assert.rejects(opened, /disk gone/);
    assert.equal(gate.isOpen, true);
    gate.post('later');
    assert.deepEqual(sent, ['state', 'later']);
  });
});
