// The notifications that stand in for the panel when it is out of sight (gate-notices.ts): with the
// panel hidden, the plan gate says "Review plan", the diff gate "Review changes", and a successful
// end "Open hand-off"; each choice does what it says. With the panel in sight the gates say nothing.

import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CodingState } from '../../../src/core/model';
import { SOURCE, TARGET, eventually, ironbees, readWorkspaceFile } from './helpers';

interface Shown {
  message: string;
  items: string[];
}

describe('notifications when the panel is hidden (real extension host)', function () {
  this.timeout(300_000);
  const original = readWorkspaceFile(SOURCE);
  const shown: Shown[] = [];
  // An answer may wait for the test (a promise): a fast run can reach its gate before the test is ready.
  const answers = new Map<string, string | Promise<string>>();
  const realInfo = vscode.window.showInformationMessage;
  let realReveal: ((preserveFocus: boolean) => Promise<void>) | undefined;
  let runId = '';

  before(async () => {
    const { view } = await ironbees();
    // Records Ironbees' notices and answers those the test chose to answer; the rest as if dismissed.
    vscode.window.showInformationMessage = (async (message: string, ...rest: unknown[]) => {
      if (!message.startsWith('Ironbees')) return undefined;
      const items = rest.filter((item): item is string => typeof item === 'string');
      shown.push({ message, items });
      return answers.get(message);
    }) as typeof vscode.window.showInformationMessage;
    // Run Agent reveals the panel; here it must stay hidden until a notification's choice shows it.
    realReveal = view.reveal.bind(view);
    view.reveal = async (): Promise<void> => undefined;
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
  });

  after(async () => {
    vscode.window.showInformationMessage = realInfo;
    const { view, controller } = await ironbees();
    if (realReveal) view.reveal = realReveal;
    if (runId) await vscode.commands.executeCommand('ironbees.revertRun', runId).then(undefined, () => undefined);
    assert.equal(readWorkspaceFile(SOURCE), original);
    void controller;
  });

  it('at the plan gate with the panel hidden: "Review plan", which shows the panel', async () => {
    const { controller, view } = await ironbees();
    let answer: (choice: string) => void = () => undefined;
    answers.set('Ironbees has a plan for you to review.', new Promise<string>((resolve) => (answer = resolve)));
    const first = (await vscode.commands.executeCommand('ironbees.runAgent', 'Fix the failing Calculator test', TARGET)) as
      CodingState | undefined;
    assert.ok(first);
    runId = first.stateId;
    assert.equal(view.isVisible, false);
    // The choice reveals the panel through the real reveal (the person answers only now).
    if (realReveal) view.reveal = realReveal;
    answer('Review plan');
    const atPlan = await controller.waitFor(['WAIT_PLAN_APPROVAL', 'FAILED']);
    assert.equal(atPlan.currentNode, 'WAIT_PLAN_APPROVAL');
    await eventually('the plan notice', () => shown.find((s) => s.message === 'Ironbees has a plan for you to review.'));
    assert.deepEqual(
      shown.filter((s) => s.message.includes('review')),
      [{ message: 'Ironbees has a plan for you to review.', items: ['Review plan'] }],
    );
    await eventually('the panel to be shown by the choice', () => view.isVisible, 60_000);
  });

  it('with the panel in sight the diff gate says nothing; hidden again, a successful end offers "Open hand-off"', async () => {
    const { controller, view } = await ironbees();
    const before = shown.length;
    await vscode.commands.executeCommand('ironbees.approvePlan');
    const atDiffs = await controller.waitFor(['WAIT_DIFF_APPROVAL', 'FAILED']);
    assert.equal(atDiffs.currentNode, 'WAIT_DIFF_APPROVAL');
    assert.equal(view.isVisible, true);
    assert.deepEqual(shown.slice(before), []);
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await eventually('the panel to be hidden', () => !view.isVisible);
    const ended = 'Ironbees: the run ended SUCCESS.';
    answers.set(ended, 'Open hand-off');
    await vscode.commands.executeCommand('ironbees.acceptAll');
    await vscode.commands.executeCommand('ironbees.submitReview');
    const done = await controller.waitFor(['SUCCESS', 'FAILED', 'WAIT_HUMAN'], 240_000);
    assert.equal(done.currentNode, 'SUCCESS', JSON.stringify(done.testResult));
    await eventually('the end notice', () => shown.find((s) => s.message === ended));
    assert.deepEqual(shown.slice(before), [{ message: ended, items: ['Open hand-off'] }]);
    await eventually('the hand-off to open', () =>
      vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((tab) => tab.label.includes('HANDOFF')),
    );
  });
});
