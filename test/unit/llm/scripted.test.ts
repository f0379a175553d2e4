import assert from 'node:assert/strict';
import { ScriptedModelClient, modelTurn, textBlock, toolUseBlock } from '../../../src/core/llm/scripted';
import type { ModelRequest } from '../../../src/core/llm/port';

function request(text: string): ModelRequest {
  return { model: 'm', system: 's', tools: [], messages: [{ role: 'user', content: text }], maxTokens: 10 };
}

describe('ScriptedModelClient', () => {
  it('answers in order, records snapshots of the requests, then fails loudly', async () => {
    const model = new ScriptedModelClient([modelTurn('one'), (req) => modelTurn(`two after ${String(req.messages[0].content)}`)]);
    const req = request('hello');
    const first = await model.complete(req);
    req.messages.push({ role: 'assistant', content: 'mutated later' });
    const second = await model.complete(request('again'));
    assert.deepEqual(first.content, [textBlock('one')]);
    assert.deepEqual(second.content, [textBlock('two after again')]);
    assert.equal(model.requests[0].messages.length, 1, 'a recorded request does not change when the caller appends');
    assert.equal(model.remaining, 0);
    await assert.rejects(
      model.complete(request('third')),
      /no scripted response left for call #3 \(model m\); the last message was: third/,
    );
  });

  it('answers every call from a responder function', async () => {
    const model = new ScriptedModelClient((_req, index) => modelTurn(`call ${index}`));
    await model.complete(request('a'));
    const answer = await model.complete(request('b'));
    assert.deepEqual(answer.content, [textBlock('call 1')]);
  });

  it('builds turns whose stop reason follows their content', () => {
    assert.equal(modelTurn([toolUseBlock('read_file', { path: 'a' })]).stopReason, 'tool_use');
    assert.equal(modelTurn('text').stopReason, 'end_turn');
    assert.equal(modelTurn('cut', { stopReason: 'max_tokens' }).stopReason, 'max_tokens');
    assert.deepEqual(modelTurn('x', { usage: { inputTokens: 5 } }).usage, {
      inputTokens: 5,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0,
    });
  });

  it('refuses to answer when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const model = new ScriptedModelClient([modelTurn('never')]);
    await assert.rejects(model.complete({ ...request('x'), signal: controller.signal }), /cancelled/);
    assert.equal(model.remaining, 1);
  });
});
