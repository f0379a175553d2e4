import { strict as assert } from 'node:assert';
import { buildTimeline, isTerminal, isWaiting } from '../../../webview-ui/src/state/timeline';

describe('webview timeline', () => {
  it('marks the nodes before the current one done and the rest to do', () => {
    const entries = buildTimeline('CODE');
    const byNode = Object.fromEntries(entries.map((e) => [e.node, e.status]));
    assert.equal(byNode.PLAN, 'done');
    assert.equal(byNode.WAIT_PLAN_APPROVAL, 'done');
    assert.equal(byNode.CODE, 'current');
    assert.equal(byNode.VALIDATE, 'todo');
    assert.equal(byNode.SUCCESS, 'todo');
    assert.equal(entries.filter((e) => e.status === 'current').length, 1);
  });

  it('ends in the ending the run took', () => {
    assert.equal(buildTimeline('FAILED').at(-1)?.node, 'FAILED');
    assert.equal(buildTimeline('FAILED').at(-1)?.status, 'current');
    assert.equal(buildTimeline('CANCELLED').at(-1)?.node, 'CANCELLED');
    assert.ok(buildTimeline('SUCCESS').every((e) => e.status === 'done'));
  });

  it('shows the hand-off instead of success while waiting for a person', () => {
    const nodes = buildTimeline('WAIT_HUMAN').map((e) => e.node);
    assert.deepEqual(nodes.slice(-2), ['ESCALATE', 'WAIT_HUMAN']);
    assert.ok(!nodes.includes('SUCCESS'));
  });

  it('tells terminal and waiting nodes apart', () => {
    assert.equal(isTerminal('SUCCESS'), true);
    assert.equal(isTerminal('WAIT_HUMAN'), false);
    assert.equal(isWaiting('WAIT_DIFF_APPROVAL'), true);
    assert.equal(isWaiting('VALIDATE'), false);
  });
});
