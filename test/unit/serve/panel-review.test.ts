// The served page's review over the panel protocol: verdicts per file and per hunk become the
// core's FileDecision (rejected hunk indexes and their reasons), as the editor's review sends them.

import assert from 'node:assert/strict';
import type { ApprovalDecision, CodingState, WorkflowNode } from '../../../src/core/model';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { PanelFeed } from '../../../src/serve/panel';
import type { HubListener, RunHub } from '../../../src/serve/runs';
import type { ExtensionMessage } from '../../../src/shared/protocol';
import { makeRun } from '../webview/fixtures';

const ORIGINAL = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const PROPOSED = ORIGINAL.replace('line 3\n', 'line three\n').replace('line 27\n', 'line twenty-seven\n');

function setup(node: WorkflowNode = 'WAIT_DIFF_APPROVAL'): {
  feed: PanelFeed;
  answers: Array<[string, WorkflowNode, ApprovalDecision]>;
  seen: ExtensionMessage[];
  replies: ExtensionMessage[];
  emit: HubListener;
} {
  const run: CodingState = makeRun({ stateId: 'run-1', currentNode: node, codeDiffs: [makeFileEdit('src/A.cs', ORIGINAL, PROPOSED)] });
  const answers: Array<[string, WorkflowNode, ApprovalDecision]> = [];
  let emit: HubListener = () => undefined;
  const hub = {
    subscribe: (listener: HubListener) => {
      emit = listener;
      return () => undefined;
    },
    state: async () => run,
    list: async () => [],
    answer: async (runId: string, gate: WorkflowNode, decision: ApprovalDecision) => void answers.push([runId, gate, decision]),
  } as unknown as RunHub;
  const feed = new PanelFeed(hub, '/ws');
  const seen: ExtensionMessage[] = [];
  feed.follow((m) => seen.push(m));
  emit({ kind: 'state', state: run });
  return { feed, answers, seen, replies: [], emit };
}

describe('serve PanelFeed: the page reviews per hunk', () => {
  it('sends one hunk rejected with its reason and the other accepted as the core FileDecision', async () => {
    const { feed, answers, seen, replies } = setup();
    const send = (m: ExtensionMessage): number => replies.push(m);
    await feed.handle({ type: 'setHunkDecision', runId: 'run-1', filePath: 'src/A.cs', hunk: 1, accepted: false, reason: 'keep 27' }, send);
    await feed.handle({ type: 'setHunkDecision', runId: 'run-1', filePath: 'src/A.cs', hunk: 0, accepted: true }, send);
    const review = seen.filter((m) => m.type === 'review').at(-1);
    assert.deepEqual(review?.type === 'review' ? review.files.map((f) => [f.status, f.hunkVerdicts, f.hunkReasons]) : null, [
      ['partial', ['accepted', 'rejected'], { 1: 'keep 27' }],
    ]);
    await feed.handle({ type: 'submitReview', runId: 'run-1' }, send);
    assert.deepEqual(replies, [], 'no error');
    assert.deepEqual(answers, [
      [
        'run-1',
        'WAIT_DIFF_APPROVAL',
        { type: 'APPROVE', files: [{ filePath: 'src/A.cs', accepted: true, rejectedHunks: [1], hunkReasons: { 1: 'keep 27' } }] },
      ],
    ]);
  });

  it('a file verdict overrides its hunks; nothing judged accepts every file', async () => {
    const judged = setup();
    const noop = (): void => undefined;
    await judged.feed.handle({ type: 'setHunkDecision', runId: 'run-1', filePath: 'src/A.cs', hunk: 1, accepted: false }, noop);
    await judged.feed.handle({ type: 'setFileDecision', runId: 'run-1', filePath: 'src/A.cs', accepted: true }, noop);
    await judged.feed.handle({ type: 'submitReview', runId: 'run-1' }, noop);
    assert.deepEqual(judged.answers[0][2], { type: 'APPROVE', files: [{ filePath: 'src/A.cs', accepted: true }] });
    // Nothing judged: every hunk counts as accepted.
    const plain = setup();
    await plain.feed.handle({ type: 'submitReview', runId: 'run-1' }, noop);
    assert.deepEqual(plain.answers[0][2], { type: 'APPROVE', files: [{ filePath: 'src/A.cs', accepted: true }] });
  });

  it('refuses a hunk that was not proposed, and verdicts when the run is not at the diff gate', async () => {
    const { feed, replies, answers } = setup();
    const send = (m: ExtensionMessage): number => replies.push(m);
    await feed.handle({ type: 'setHunkDecision', runId: 'run-1', filePath: 'src/A.cs', hunk: 2, accepted: false }, send);
    assert.deepEqual(replies, [{ type: 'error', message: 'Hunk 3 of src/A.cs is not in this proposal.' }]);
    const elsewhere = setup('VALIDATE');
    const said: ExtensionMessage[] = [];
    await elsewhere.feed.handle({ type: 'setHunkDecision', runId: 'run-1', filePath: 'src/A.cs', hunk: 0, accepted: true }, (m) =>
      said.push(m),
    );
    assert.deepEqual(said, [{ type: 'error', message: 'The run is at VALIDATE, not waiting for a review of its changes.' }]);
    assert.deepEqual(answers, []);
  });

  it('forgets the verdicts once the run leaves the gate and shows the next proposal unjudged; a reloaded page gets the review so far', async () => {
    const { feed, answers, emit, seen } = setup();
    const noop = (): void => undefined;
    await feed.handle({ type: 'setHunkDecision', runId: 'run-1', filePath: 'src/A.cs', hunk: 0, accepted: false }, noop);
    const reloaded: ExtensionMessage[] = [];
    await feed.snapshot((m) => reloaded.push(m));
    const again = reloaded.find((m) => m.type === 'review');
    assert.deepEqual(again?.type === 'review' ? again.files[0].rejectedHunks : null, [0]);
    emit({ kind: 'state', state: makeRun({ stateId: 'run-1', currentNode: 'VALIDATE' }) });
    seen.length = 0;
    const next = makeFileEdit('src/A.cs', ORIGINAL, ORIGINAL.replace('line 9\n', 'line nine\n'));
    emit({ kind: 'state', state: makeRun({ stateId: 'run-1', currentNode: 'WAIT_DIFF_APPROVAL', codeDiffs: [next] }) });
    // The pages are told the new proposal is unjudged (they still show the last one's verdicts).
    assert.deepEqual(
      seen.map((m) => (m.type === 'review' ? [m.type, m.files.map((f) => [f.status, f.hunkVerdicts])] : [m.type])),
      [['state'], ['review', [['pending', ['pending']]]]],
    );
    await feed.handle({ type: 'submitReview', runId: 'run-1' }, noop);
    assert.deepEqual(answers[0][2], { type: 'APPROVE', files: [{ filePath: 'src/A.cs', accepted: true }] });
  });
});
