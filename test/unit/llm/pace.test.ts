import assert from 'node:assert/strict';
import { PacedModelClient } from '../../../src/core/llm/providers/pace';
import { ScriptedModelClient, modelTurn } from '../../../src/core/llm/scripted';
import type { ModelRequest } from '../../../src/core/llm/port';

const REQUEST: ModelRequest = { model: 'm', system: '', tools: [], messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 };

describe('minimum delay between model calls', () => {
  it('spaces the starts of calls by the interval (a fake clock: the waits asked for are exact)', async () => {
    let now = 1000;
    const sleeps: number[] = [];
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        now += ms;
      },
    };
    const inner = new ScriptedModelClient(() => {
      now += 300; // each call takes 300 ms
      return modelTurn('ok');
    });
    const paced = new PacedModelClient(inner, 2000, clock);
    await paced.complete(REQUEST);
    await paced.complete(REQUEST);
    now += 5000; // a long pause: no wait needed
    await paced.complete(REQUEST);
    await Promise.all([paced.complete(REQUEST), paced.complete(REQUEST)]);
    assert.deepEqual(sleeps, [1700, 1700, 1700]);
    assert.equal(inner.requests.length, 5);
  });
});
