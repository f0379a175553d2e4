import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CodingState } from '../../../src/core/model';
import { SOURCE, TARGET, eventually, ironbees, readWorkspaceFile, reviewDiffTabs } from './helpers';

describe('a run with the scripted demo model (real extension host, real dotnet)', function () {
  this.timeout(300_000);
  const original = readWorkspaceFile(SOURCE);
  let runId = '';

  it('Run Agent starts a run that stops at the plan, and the status bar says so', async () => {
    const { controller, statusBar } = await ironbees();
    const seen: string[] = [];
    const listener = controller.onDidChangeState(() => seen.push(statusBar.renderedText));
    const first = (await vscode.commands.executeCommand('ironbees.runAgent', 'Fix the failing Calculator test', TARGET)) as
      CodingState | undefined;
    assert.ok(first, 'the command returns the first state');
    runId = first.stateId;
    const atPlan = await controller.waitFor(['WAIT_PLAN_APPROVAL', 'FAILED']);
    listener.dispose();
    assert.equal(atPlan.currentNode, 'WAIT_PLAN_APPROVAL', JSON.stringify(atPlan.metadata));
    assert.ok(atPlan.plan?.steps.length, 'the plan has steps');
    assert.equal(statusBar.renderedText, '$(bell) Ironbees · Plan ready for review');
    assert.ok(
      seen.some((text) => text.startsWith('$(sync~spin) Ironbees')),
      `a spinner while working: ${seen.join(' | ')}`,
    );
  });

  it('Approve Plan (the command) moves on to the proposed change, opened in a diff editor with hunk CodeLenses', async () => {
    const { controller, review } = await ironbees();
    await vscode.commands.executeCommand('ironbees.approvePlan');
    const atDiffs = await controller.waitFor(['WAIT_DIFF_APPROVAL', 'FAILED']);
    assert.equal(atDiffs.currentNode, 'WAIT_DIFF_APPROVAL');
    assert.deepEqual(
      atDiffs.codeDiffs.map((d) => d.filePath),
      [SOURCE],
    );
    assert.equal(review.review?.runId, runId);
    const tab = await eventually('the review diff editor', () => reviewDiffTabs()[0]);
    assert.equal(tab.modified.path, `/${SOURCE}`);
    const proposed = await vscode.workspace.openTextDocument(tab.modified);
    assert.match(proposed.getText(), /return a \/ b;/);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', tab.modified);
    const commands = lenses.map((lens) => lens.command?.command);
    assert.ok(commands.includes('ironbees.acceptHunk') && commands.includes('ironbees.rejectHunk'), JSON.stringify(commands));
    assert.equal(readWorkspaceFile(SOURCE), original, 'nothing is written before the review');
  });

  it('Accept File from the diff editor title applies it; validation passes and the status bar shows success', async () => {
    const { controller, statusBar } = await ironbees();
    const tab = reviewDiffTabs()[0];
    await vscode.commands.executeCommand('ironbees.acceptFile', tab.modified);
    const done = await controller.waitFor(['SUCCESS', 'FAILED', 'WAIT_HUMAN'], 240_000);
    assert.equal(done.currentNode, 'SUCCESS', JSON.stringify(done.testResult));
    assert.equal(done.testResult?.failed, 0);
    assert.match(readWorkspaceFile(SOURCE) ?? '', /return a \/ b;/);
    await eventually('the status bar to stop spinning', () => statusBar.renderedText === '$(check) Ironbees 1/5 · Succeeded');
    // The demo reviewer passes the change and points at the line it changed: a folded comment there.
    const { reviewComments } = await ironbees();
    const threads = await eventually('the review comment', () => reviewComments.threads.length > 0 && reviewComments.threads);
    assert.deepEqual(
      threads.map((t) => [t.uri.scheme, t.uri.path.endsWith(`/${SOURCE}`), t.range?.start.line, t.label]),
      [['file', true, 17, 'Ironbees review: minor (score 10/10)']],
    );
    await eventually('the review tabs to close', () => reviewDiffTabs().length === 0);
  });

  it('Revert Run restores the original file and the run is in the history', async () => {
    const { controller } = await ironbees();
    const history = await controller.history();
    assert.equal(history[0]?.runId, runId);
    assert.equal(history[0]?.currentNode, 'SUCCESS');
    await vscode.commands.executeCommand('ironbees.revertRun', runId);
    assert.equal(readWorkspaceFile(SOURCE), original);
  });
});
