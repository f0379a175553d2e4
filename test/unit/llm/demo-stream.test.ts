// The demo model tells its words a few at a time, as a real model streams them, when someone listens.

import assert from 'node:assert/strict';
import { StreamingDemoClient, pieces } from '../../../src/core/llm/providers/demo/demo-stream';
import { ScriptedModelClient, modelTurn, textBlock, toolUseBlock } from '../../../src/core/llm/scripted';

const request = { model: 'm', system: '', tools: [], messages: [{ role: 'user' as const, content: 'go' }], maxTokens: 10 };

describe('the demo model streams its words', () => {
  it('cuts a text at word boundaries into at most five pieces that join back exactly', () => {
    assert.deepEqual(pieces('Reading the source files to find the cause.', 5), ['Reading the ', 'source files ', 'to find ', 'the cause.']);
    assert.deepEqual(pieces('one', 5), ['one']);
  });

  it('tells the pieces before it answers, and only when asked', async () => {
    const turn = modelTurn([textBlock('Looking for the C# source files first.'), toolUseBlock('list_files', { pattern: '**/*.cs' }, 't1')]);
    const heard: string[] = [];
    const client = new StreamingDemoClient(new ScriptedModelClient([turn, turn]));
    const response = await client.complete({ ...request, onText: (piece) => heard.push(piece) });
    assert.deepEqual(heard, ['Looking for ', 'the C# ', 'source files ', 'first.']);
    assert.deepEqual(response, turn);
    assert.deepEqual(await client.complete(request), turn);
    assert.equal(heard.length, 4);
  });
});
