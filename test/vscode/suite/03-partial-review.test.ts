// Hunk-level review through the real Anthropic SDK against a scripted local fake of the Messages
// API: the coder proposes two hunks in one file and a new file; the person accepts one hunk,
// rejects the other with a reason, and rejects the new file. Exactly that reaches the disk, and
// the account for the coder gives each rejected hunk its own reason.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startFakeAnthropic, toolUse } from '../../support/fake-anthropic';
import type { FakeAnthropic } from '../../support/fake-anthropic';
import type { HunkRef } from '../../../src/extension/commands';
import { reviewUri } from '../../../src/extension/review/review-uris';
import { SOURCE, TARGET, eventually, ironbees, readWorkspaceFile, stopUsingFakeModel, useFakeModel, workspaceRoot } from './helpers';

const NOTES = 'src/Calculator/Notes.cs';
const PLAN = {
  spec: 'Calc.Divide returns a / b.',
  plan: {
    summary: 'Fix Divide; tidy Add; add notes.',
    steps: [
      { number: 1, description: 'Return a / b', actionType: 'MODIFY', filePath: SOURCE, rationale: 'The test expects 6 / 3 = 2' },
      { number: 2, description: 'Add notes', actionType: 'CREATE', filePath: NOTES, rationale: 'Documentation' },
    ],
    affectedFiles: [SOURCE, NOTES],
    complexity: 'LOW',
  },
};

function edit(oldStr: string, newStr: string): ReturnType<typeof toolUse> {
  return toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: oldStr, new_str: newStr });
}

describe('per-hunk and per-file review (real SDK against a fake Messages API)', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  const original = readWorkspaceFile(SOURCE) ?? '';

  before(async () => {
    fake = await startFakeAnthropic();
    await useFakeModel(fake.url);
  });

  after(async () => {
    // Close what this suite opened: the person's file and the review diff opened again.
    const opened = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter(
        (tab) =>
          (tab.input instanceof vscode.TabInputText && tab.input.uri.path.endsWith(SOURCE)) ||
          (tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === 'ironbees-proposed'),
      );
    await vscode.window.tabGroups.close(opened);
    await stopUsingFakeModel();
    await fake.close();
  });

  it('applies a partly accepted file as accepted, and leaves out the rejected hunk and file', async () => {
    fake.enqueue(
      toolUse('submit_plan', PLAN),
      edit('public static int Add(int a, int b) => a + b;', 'public static int Add(int a, int b) => b + a;'),
      edit('return a * b;', 'return a / b;'),
      toolUse('str_replace_based_edit_tool', { command: 'create', path: NOTES, file_text: '// Notes\n' }),
      toolUse('submit_changes', { summary: 'Fixed Divide, tidied Add, added notes.' }),
    );
    const { controller, review } = await ironbees();
    // The person has the file open (not typing in it).
    const personEditor = await vscode.window.showTextDocument(vscode.Uri.file(join(workspaceRoot(), SOURCE)), { preview: false });
    const first = await controller.start('Fix Divide', TARGET);
    await controller.waitFor(['WAIT_PLAN_APPROVAL']);
    await vscode.commands.executeCommand('ironbees.approvePlan');
    const atDiffs = await controller.waitFor(['WAIT_DIFF_APPROVAL', 'FAILED']);
    assert.equal(atDiffs.currentNode, 'WAIT_DIFF_APPROVAL', JSON.stringify(atDiffs.metadata));
    assert.deepEqual(atDiffs.codeDiffs.map((d) => d.filePath).sort(), [NOTES, SOURCE].sort());
    assert.equal(review.review?.hunks(SOURCE).length, 2);
    // The diff opens beside the person's editor, in the active group: VS Code shows an editor
    // group's title actions (the review's ✓ / ✕) only in the active one.
    const isDiff = (tab: vscode.Tab): boolean =>
      tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === 'ironbees-proposed';
    const diffGroup = await eventually('the diff open', () => vscode.window.tabGroups.all.find((group) => group.tabs.some(isDiff)));
    assert.notEqual(diffGroup.viewColumn, personEditor.viewColumn);
    assert.equal(vscode.window.tabGroups.activeTabGroup.viewColumn, diffGroup.viewColumn);

    // Each hunk's lens sits on its first changed line (Add on line 5, the return on line 18), not on
    // the hunk header three context lines above it.
    // The lens command needs the document loaded (it may not be the diff opened first).
    const proposed = await vscode.workspace.openTextDocument(reviewUri('proposed', first.stateId, SOURCE));
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', proposed.uri);
    const acceptLines = lenses.filter((lens) => lens.command?.command === 'ironbees.acceptHunk').map((lens) => lens.range.start.line);
    assert.deepEqual(acceptLines, [4, 17]);

    // The labelled review bar on the file's first line: where the person is and each action with its key.
    const bar = lenses.filter((lens) => lens.range.start.line === 0).map((lens) => lens.command?.title);
    assert.match(bar[0] ?? '', /^Ironbees review · file [12] of 2 · not decided$/);
    assert.deepEqual(bar.slice(1, 3), ['$(check) Accept File (Ctrl+Alt+Y)', '$(close) Reject File (Ctrl+Alt+N)']);

    const hunk = (index: number): HunkRef => ({ runId: first.stateId, filePath: SOURCE, hunk: index });
    // The hunk key binding means the hunk under the cursor: line 6 is in hunk 1 (Add).
    await vscode.window.showTextDocument(proposed, { selection: new vscode.Range(5, 0, 5, 0) });
    await vscode.commands.executeCommand('ironbees.rejectHunk', undefined, 'Leave Add alone');
    // A second thought about hunk 2: its reason must not become hunk 1's.
    await vscode.commands.executeCommand('ironbees.rejectHunk', hunk(1), 'Not sure about Divide');
    await vscode.commands.executeCommand('ironbees.acceptHunk', hunk(1));
    const reviews = review.fileReviews();
    assert.equal(reviews.find((f) => f.filePath === SOURCE)?.status, 'partial');
    assert.deepEqual(reviews.find((f) => f.filePath === SOURCE)?.rejectedHunks, [0]);
    assert.equal(controller.state?.currentNode, 'WAIT_DIFF_APPROVAL', 'not submitted while a file is undecided');

    await vscode.commands.executeCommand('ironbees.rejectFile', { filePath: NOTES }, 'No notes, please');
    const done = await controller.waitFor(['SUCCESS', 'FAILED', 'WAIT_HUMAN'], 240_000);
    assert.equal(done.currentNode, 'SUCCESS');
    // What the coder would be told: each rejection with its own reason.
    const told = String(done.metadata.rejections ?? '');
    assert.match(told, /Calculator\.cs: hunk 1 \(@@[^)]*@@\) was rejected and not applied\. Reason: Leave Add alone/);
    assert.match(told, /Notes\.cs: the whole file was rejected and not applied\. Reason: No notes, please/);
    assert.doesNotMatch(told, /Not sure about Divide|hunk 2/);
    const after = readWorkspaceFile(SOURCE) ?? '';
    assert.match(after, /return a \/ b;/);
    assert.match(after, /=> a \+ b;/, 'the rejected hunk was not applied');
    assert.equal(after, original.replace('return a * b;', 'return a / b;'));
    assert.equal(readWorkspaceFile(NOTES), null, 'the rejected file was not created');
    await vscode.commands.executeCommand('ironbees.revertRun', first.stateId);
    await eventually('the original back', () => readWorkspaceFile(SOURCE) === original);

    // Typing in their file, the person keeps the focus: a diff opens beside it without taking the
    // active group (its review actions then show once the person clicks into it).
    await vscode.window.showTextDocument(personEditor.document, { viewColumn: personEditor.viewColumn, preserveFocus: false });
    await vscode.commands.executeCommand('type', { text: ' ' });
    await vscode.commands.executeCommand('undo');
    await review.openDiff(SOURCE, first.stateId);
    const besideTyping = await eventually('the diff open again', () =>
      vscode.window.tabGroups.all.find((group) => group.tabs.some(isDiff)),
    );
    assert.notEqual(besideTyping.viewColumn, personEditor.viewColumn);
    assert.equal(vscode.window.tabGroups.activeTabGroup.viewColumn, personEditor.viewColumn);
    assert.equal(personEditor.document.isDirty, false);
  });
});
