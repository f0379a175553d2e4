// The code review as VS Code comments, in the real extension (real SDK against the scripted fake
// Messages API, real dotnet): each issue of the shown run's review is a read-only thread of the
// "Ironbees review" comment controller on its file at its line (and, while the run's next proposal
// is under review, on the proposed side of that diff), with the model's words escaped; an issue
// outside the workspace gets none. The threads survive a window reload, go when a new run starts,
// are replaced by the next review and go when the run is reverted.

import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { reviewUri } from '../../../src/extension/review/review-uris';
import { startFakeAnthropic, toolUse } from '../../support/fake-anthropic';
import type { FakeAnthropic } from '../../support/fake-anthropic';
import {
  SOURCE,
  TARGET,
  eventually,
  ironbees,
  readWorkspaceBytes,
  readWorkspaceFile,
  setSetting,
  setUserSetting,
  stopUsingFakeModel,
  testHooks,
  useFakeModel,
} from './helpers';

const PLAN = {
  spec: 'Calc.Divide returns a / b.',
  plan: {
    summary: 'Fix Divide.',
    steps: [{ number: 1, description: 'Divide instead of multiply', actionType: 'MODIFY', filePath: SOURCE, rationale: 'The bug' }],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

function edit(from: string, to: string): ReturnType<typeof toolUse> {
  return toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: from, new_str: to });
}

/** A failing review: a major issue with Markdown in it at Divide's line, a minor one with no line, a critical one outside the workspace. */
const FAILING_REVIEW = {
  score: 5,
  criticalIssues: [
    {
      severity: 'major',
      file: SOURCE,
      line: 18,
      description: 'Debug output: see [docs](command:workbench.action.terminal.new)',
      suggestedFix: '<b>Remove</b> the line',
    },
    { severity: 'minor', file: SOURCE, description: 'No test names the zero case.' },
    { severity: 'critical', file: '../outside/Evil.cs', line: 3, description: 'A key in code' },
  ],
  suggestions: [],
};
const MAJOR_BODY =
  '**Major**: Debug output\\: see \\[docs\\]\\(command\\:workbench\\.action\\.terminal\\.new\\)\n\n' +
  '**Suggested fix**: \\<b\\>Remove\\<\\/b\\> the line';
const MINOR_BODY = '**Minor**: No test names the zero case\\.';

const EXPANDED = vscode.CommentThreadCollapsibleState.Expanded;
const COLLAPSED = vscode.CommentThreadCollapsibleState.Collapsed;

/** What the controller holds now, one row per thread. */
async function threads(): Promise<unknown[]> {
  const { reviewComments } = await ironbees();
  return reviewComments.threads.map((thread) => {
    const [comment] = thread.comments;
    const body = comment.body as vscode.MarkdownString;
    return {
      uri: thread.uri.toString(),
      line: thread.range?.start.line,
      label: thread.label,
      canReply: thread.canReply,
      collapsed: thread.collapsibleState,
      comments: thread.comments.length,
      author: comment.author.name,
      body: body.value,
      trusted: body.isTrusted ?? false,
      html: body.supportHtml ?? false,
    };
  });
}

function thread(uri: vscode.Uri, line: number, label: string, collapsed: vscode.CommentThreadCollapsibleState, body: string): unknown {
  return {
    uri: uri.toString(),
    line,
    label,
    canReply: false,
    collapsed,
    comments: 1,
    author: 'Ironbees reviewer',
    body,
    trusted: false,
    html: false,
  };
}

function fileUri(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return vscode.Uri.joinPath(folder.uri, SOURCE);
}

describe('the code review as comments on the lines (real SDK against a fake Messages API)', function () {
  this.timeout(600_000);
  let fake: FakeAnthropic;
  const original = readWorkspaceBytes(SOURCE);
  let advisoryRun = '';

  before(async () => {
    fake = await startFakeAnthropic();
    await useFakeModel(fake.url);
    await setUserSetting('approval.plan', 'never');
    await setUserSetting('approval.diffs', 'never');
  });

  after(async () => {
    for (const key of ['approval.diffs', 'approval.plan', 'review']) await setUserSetting(key, undefined);
    await setSetting('maxIterations', undefined);
    await stopUsingFakeModel();
    await fake.close();
  });

  it('advisory: a failing review does not stop the run; its issues are read-only threads on the file, escaped; none outside the workspace', async () => {
    await setUserSetting('review', 'advisory');
    fake.enqueue(
      toolUse('submit_plan', PLAN),
      edit('return a * b;', 'return a / b;'),
      toolUse('submit_changes', { summary: 'Divide divides.' }),
    );
    fake.enqueueReview(toolUse('submit_review', FAILING_REVIEW));
    const { controller } = await ironbees();
    advisoryRun = (await controller.start('Fix Divide', TARGET)).stateId;
    const done = await controller.waitFor(['SUCCESS', 'WAIT_HUMAN', 'FAILED'], 480_000);
    assert.equal(done.currentNode, 'SUCCESS', JSON.stringify(done.metadata.error ?? done.testResult?.failures ?? null));
    assert.equal(done.review?.pass, false);
    assert.equal(fake.reviewRequests.length, 1);

    const expected = [
      thread(fileUri(), 17, 'Ironbees review: major (score 5/10)', EXPANDED, MAJOR_BODY),
      thread(fileUri(), 0, 'Ironbees review: minor (score 5/10)', COLLAPSED, MINOR_BODY),
    ];
    assert.deepEqual(await eventually('the review threads', async () => ((await threads()).length > 0 ? threads() : null)), expected);

    // Deactivated, its threads go; activated again, the restored run shows them again.
    const before = (await ironbees()).reviewComments;
    await (await testHooks()).reload();
    assert.equal(before.threads.length, 0, 'the old controller disposed its threads');
    await eventually('the restored run', async () => (await ironbees()).controller.state?.stateId === advisoryRun);
    assert.deepEqual(await eventually('the threads again', async () => ((await threads()).length > 0 ? threads() : null)), expected);
  });

  it('required: a new run clears them; the failing review’s issue is on the next proposal’s diff too; the passing review replaces it; a revert clears them', async () => {
    await setUserSetting('review', 'required');
    await setUserSetting('approval.diffs', 'always');
    await setSetting('maxIterations', 2);
    fake.enqueue(
      toolUse('submit_plan', PLAN),
      edit('=> a + b;', '=> b + a;'),
      toolUse('submit_changes', { summary: 'Add, operands swapped.' }),
      edit('=> a * b;', '=> b * a;'),
      toolUse('submit_changes', { summary: 'Multiply, operands swapped.' }),
    );
    fake.enqueueReview(
      toolUse('submit_review', {
        score: 4,
        criticalIssues: [{ severity: 'critical', file: SOURCE, line: 5, description: 'Why swap?' }],
        suggestions: [],
      }),
      toolUse('submit_review', {
        score: 9,
        criticalIssues: [{ severity: 'minor', file: SOURCE, line: 9, description: 'Fine.' }],
        suggestions: [],
      }),
    );
    const { controller, reviewComments, review } = await ironbees();
    const seen: string[] = [];
    const listener = controller.onDidChangeState(() => seen.push(reviewComments.threads.map((t) => t.label).join(',')));
    let runId = '';
    try {
      runId = (await controller.start('Tidy the operands', TARGET)).stateId;
      await eventually(
        'the first proposal under review',
        () => controller.state?.currentNode === 'WAIT_DIFF_APPROVAL' && review.review !== null,
      );
      assert.deepEqual(await threads(), [], 'the first proposal has no review yet');
      await vscode.commands.executeCommand('ironbees.acceptAll');

      // The failing review sends the run back to the coder; its issue is on the file and on the proposed side of the new diff.
      await eventually(
        'the second proposal under review',
        () => controller.state?.currentNode === 'WAIT_DIFF_APPROVAL' && controller.state.iterationCount === 2 && review.review !== null,
        480_000,
      );
      const critical = 'Ironbees review: critical (score 4/10)';
      assert.deepEqual(await threads(), [
        thread(fileUri(), 4, critical, EXPANDED, '**Critical**: Why swap\\?'),
        thread(reviewUri('proposed', runId, SOURCE), 4, critical, EXPANDED, '**Critical**: Why swap\\?'),
      ]);
      await vscode.commands.executeCommand('ironbees.acceptAll');
      const done = await controller.waitFor(['SUCCESS', 'WAIT_HUMAN', 'FAILED'], 480_000);
      assert.equal(done.currentNode, 'SUCCESS', JSON.stringify(done.metadata.error ?? done.testResult?.failures ?? null));
      assert.equal(done.iterationCount, 2);
    } finally {
      listener.dispose();
    }
    assert.equal(seen[0], '', 'the new run’s first state shows no review of the last run');
    // The diff review over, the issue stays on the file only, until the passing review replaces it.
    assert.ok(seen.includes(`Ironbees review: critical (score 4/10)`), JSON.stringify([...new Set(seen)]));
    assert.deepEqual(await threads(), [thread(fileUri(), 8, 'Ironbees review: minor (score 9/10)', COLLAPSED, '**Minor**: Fine\\.')]);

    await vscode.commands.executeCommand('ironbees.revertRun', runId);
    await vscode.commands.executeCommand('notifications.clearAll');
    await eventually('the threads to go with the revert', async () => (await threads()).length === 0);
    await vscode.commands.executeCommand('ironbees.revertRun', advisoryRun);
    await vscode.commands.executeCommand('notifications.clearAll');
    assert.deepEqual(readWorkspaceBytes(SOURCE), original, 'both runs reverted, byte for byte');
    assert.doesNotMatch(readWorkspaceFile(SOURCE) ?? '', /b \+ a/);
  });
});
