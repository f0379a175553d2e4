// The live activity reaches the panel while the agent works (real SDK against the scripted fake
// Messages API): a planner that reads a file, searches, then thinks for ten seconds before it
// submits. The panel is sent that file and that search — and the tokens have moved — before the
// plan appears; the Ironbees output channel has the same lines at debug level.

import assert from 'node:assert/strict';
import type { CodingState } from '../../../src/core/model';
import type { ExtensionMessage } from '../../../src/shared/protocol';
import { startFakeAnthropic, toolUse } from '../../support/fake-anthropic';
import type { FakeAnthropic } from '../../support/fake-anthropic';
import { SOURCE, TARGET, eventually, ironbees, stopUsingFakeModel, useFakeModel } from './helpers';

const PLAN = {
  spec: 'Calc.Divide returns a / b.',
  plan: {
    summary: 'Fix the wrong operator in Calc.Divide.',
    steps: [{ number: 1, description: 'Return a / b', actionType: 'MODIFY', filePath: SOURCE, rationale: 'The test expects 6 / 3 = 2' }],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

const THINKING_MS = 10_000;

interface Posted {
  message: ExtensionMessage;
  /** The run's state as the controller had it when the message was posted. */
  state: CodingState | null;
}

describe('live activity in the panel (real SDK against a fake Messages API, a planner that thinks for 10 s)', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  const posted: Posted[] = [];
  let restorePost: (() => void) | null = null;

  before(async () => {
    fake = await startFakeAnthropic();
    await useFakeModel(fake.url);
    const { view, controller } = await ironbees();
    // What the extension sends the panel, in order, each with the run's state at that moment.
    const post = view.post.bind(view);
    view.post = (message: ExtensionMessage): void => {
      posted.push({ message: structuredClone(message), state: controller.state });
      post(message);
    };
    restorePost = () => (view.post = post);
  });

  after(async () => {
    restorePost?.();
    const { controller } = await ironbees();
    if (controller.state && controller.isLive) await controller.cancel().catch(() => undefined);
    await stopUsingFakeModel();
    await fake.close();
  });

  it('shows the file read and the search, and moves the tokens, before the plan appears', async () => {
    fake.enqueue(
      toolUse(
        'read_file',
        { path: SOURCE, limit: 12 },
        { text: 'Let me look at Divide first.', usage: { input_tokens: 900, output_tokens: 40 } },
      ),
      toolUse('search_text', { query: 'Divide(', filePattern: '*.cs' }, { usage: { input_tokens: 1000, output_tokens: 30 } }),
      async () => {
        await new Promise((resolve) => setTimeout(resolve, THINKING_MS));
        return toolUse('submit_plan', PLAN, {
          text: 'It multiplies instead of dividing.',
          usage: { input_tokens: 1100, output_tokens: 200 },
        });
      },
    );
    const { controller } = await ironbees();
    await controller.start('Fix Divide', TARGET);

    // While the planner still thinks: the lines are in the panel and the tokens moved.
    const during = await eventually(
      'the search line while planning',
      () => {
        const lines = activityLines();
        return lines.includes('searched "Divide(" in *.cs — 3 matches') && controller.state?.currentNode === 'PLAN' && controller.state;
      },
      240_000,
    );
    assert.equal(during.plan, null, 'no plan yet');
    assert.equal(during.usage.inputTokens, 1900, 'the two calls so far are counted during the step');
    assert.equal(during.usage.outputTokens, 70);
    const usageShown = posted.find(
      (p) => p.message.type === 'state' && p.message.run?.currentNode === 'PLAN' && p.message.run.usage.inputTokens > 0,
    );
    assert.ok(usageShown, 'the panel was sent tokens > 0 during PLAN');

    const waiting = await controller.waitFor(['WAIT_PLAN_APPROVAL', 'FAILED'], 120_000);
    assert.equal(waiting.currentNode, 'WAIT_PLAN_APPROVAL', JSON.stringify(waiting.metadata.error));

    const firstPlan = posted.findIndex((p) => p.message.type === 'state' && p.message.run?.plan != null);
    const read = posted.findIndex((p) => entryTexts(p).includes(`read ${SOURCE} lines 1–12 of 20`));
    const search = posted.findIndex((p) => entryTexts(p).includes('searched "Divide(" in *.cs — 3 matches'));
    assert.ok(read >= 0 && search > read, `read ${read}, search ${search}`);
    assert.ok(firstPlan > search, `the plan (${firstPlan}) came after the search (${search})`);
    // Posted while the run had no plan yet.
    assert.equal(posted[search]?.state?.plan, null);
    assert.deepEqual(activityLines(), [
      'Let me look at Divide first.',
      `read ${SOURCE} lines 1–12 of 20`,
      '',
      'searched "Divide(" in *.cs — 3 matches',
      'It multiplies instead of dividing.',
      'submitted the plan',
    ]);
    await controller.cancel();
  });

  /** The panel's activity list as the messages so far build it (a reset replaces it; others add or replace by id). */
  function activityLines(): string[] {
    let entries: Array<{ id: number; text: string }> = [];
    for (const { message } of posted) {
      if (message.type !== 'activity') continue;
      if (message.reset) entries = [];
      for (const entry of message.entries) {
        const index = entries.findIndex((e) => e.id === entry.id);
        if (index >= 0) entries[index] = entry;
        else entries.push(entry);
      }
    }
    return entries.map((e) => e.text);
  }
});

function entryTexts(posted: Posted): string[] {
  return posted.message.type === 'activity' ? posted.message.entries.map((e) => e.text) : [];
}
