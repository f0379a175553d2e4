// Run Agent in a workspace with several solutions: it asks which one in a quick pick (driven here
// with the quick-input commands Escape and Enter run); dismissing it starts nothing, and the pick
// is the target the run builds and tests.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CodingState } from '../../../src/core/model';
import { TERMINAL_NODES } from '../../../src/core/model';
import { TARGET, ironbees, repeatCommandUntil, workspaceRoot } from './helpers';

// Sorted before Calculator.slnx, so it is the quick pick's first (active) item.
const OTHER = 'Aaa/Other.slnx';

/** The target a run was started with, as persisted (the machine's workflow context). */
async function persistedTarget(runId: string): Promise<unknown> {
  const { controller } = await ironbees();
  const run = await controller.store.load(runId);
  const machine = run.machine as { context?: { workflow?: { target?: unknown } } } | null;
  return machine?.context?.workflow?.target;
}

describe('Run Agent with several solutions (real extension host)', function () {
  this.timeout(180_000);
  const other = (): string => path.join(workspaceRoot(), OTHER);

  before(async () => {
    fs.mkdirSync(path.dirname(other()), { recursive: true });
    fs.writeFileSync(other(), '<Solution>\n</Solution>\n');
    // findFiles goes through the search service: wait until it sees the new solution.
    for (let i = 0; i < 50; i += 1) {
      const found = await vscode.workspace.findFiles('**/*.slnx');
      if (found.length >= 2) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the second solution was never found by findFiles');
  });

  after(() => {
    fs.rmSync(path.dirname(other()), { recursive: true, force: true });
  });

  it('starts nothing when the quick pick is dismissed', async () => {
    const { controller } = await ironbees();
    const runsBefore = (await controller.history()).length;
    const started = vscode.commands.executeCommand<CodingState | undefined>('ironbees.runAgent', 'Fix the failing Calculator test');
    const result = await repeatCommandUntil('workbench.action.closeQuickOpen', Promise.resolve(started));
    assert.equal(result, undefined);
    assert.equal(controller.isLive, false);
    assert.equal((await controller.history()).length, runsBefore);
  });

  it('runs on the solution picked', async () => {
    const { controller } = await ironbees();
    const started = Promise.resolve(
      vscode.commands.executeCommand<CodingState | undefined>('ironbees.runAgent', 'Fix the failing Calculator test'),
    );
    const first = await repeatCommandUntil('workbench.action.acceptSelectedQuickOpenItem', started);
    assert.ok(first, 'a run started');
    assert.notEqual(OTHER, TARGET);
    assert.equal(await persistedTarget(first.stateId), OTHER, 'the picked solution, not the one a lone target would give');
    // The other solution is empty: end the run here, whatever step it reached.
    const now = controller.state;
    if (now && !TERMINAL_NODES.includes(now.currentNode)) await vscode.commands.executeCommand('ironbees.cancelRun', { confirm: false });
    const ended = await controller.waitFor(TERMINAL_NODES, 120_000);
    assert.equal(ended.stateId, first.stateId);
  });
});
