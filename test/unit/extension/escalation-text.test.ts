// The "needs you" notification: the request cut at a word with an ellipsis, and the real reason.

import assert from 'node:assert/strict';
import type { CodingState } from '../../../src/core/model';
import { EMPTY_USAGE } from '../../../src/core/model';
import { escalationNotice, shortRequest } from '../../../src/extension/escalation-text';

function state(userRequest: string, metadata: Record<string, unknown> = {}, iterationCount = 2): CodingState {
  return {
    stateId: 'r',
    userRequest,
    spec: null,
    plan: null,
    codeDiffs: [],
    buildResult: null,
    testResult: null,
    baseline: null,
    errorContext: null,
    iterationCount,
    maxIterations: 2,
    currentNode: 'WAIT_HUMAN',
    timestamp: 'now',
    usage: EMPTY_USAGE,
    metadata,
  };
}

describe('escalation notice', () => {
  it('keeps a short request whole and cuts a long one at a word, with an ellipsis', () => {
    assert.equal(shortRequest('Fix the failing Calculator test\nmore'), 'Fix the failing Calculator test');
    assert.equal(
      shortRequest('Make Divide throw a clear exception when the divisor is zero, and add a test for it'),
      'Make Divide throw a clear exception when the divisor is…',
    );
  });

  it('says why: still failing, rejections in a row, or a request for help', () => {
    assert.equal(escalationNotice(state('Fix Divide')), 'Ironbees needs you: "Fix Divide" — still failing after 2 iterations.');
    const attempts = [
      { iteration: 1, outcome: 'applied' },
      { iteration: 2, outcome: 'rejected' },
      { iteration: 2, outcome: 'rejected' },
      { iteration: 2, outcome: 'rejected' },
    ];
    assert.equal(
      escalationNotice(state('Fix Divide', { attempts })),
      'Ironbees needs you: "Fix Divide" — you rejected 3 proposals in a row.',
    );
    assert.equal(
      escalationNotice(state('Fix Divide', { helpRequest: { reason: 'Which overload?' } })),
      'Ironbees needs you: "Fix Divide" — the agent asked for help: Which overload?',
    );
  });
});
