// The editor refuses to resume or revert a `run --worktree` run in the working tree (the CLI does both
// in its worktree), but a `--parallel` run, whose integration worktree has the run's own id, is an
// ordinary run of the working tree: its Resume (after a kill, or an escalation) goes on.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { refuseWorktreeRun } from '../../../src/extension/worktree-guard';
import { newRecord, worktreesDir, writeRecord } from '../../../src/core/workflow/worktree-runs';

describe('refuseWorktreeRun', () => {
  let root: string;
  beforeEach(() => (root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-guard-')))));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  function record(runId: string) {
    const top = path.join(worktreesDir(root), runId);
    return newRecord({ runId, path: top, workspace: top, base: 'abc' });
  }

  it('refuses a worktree run, naming the CLI command', () => {
    writeRecord(root, record('r1'));
    assert.throws(
      () => refuseWorktreeRun(root, 'r1', 'resume'),
      /^OrchestratorError: Run r1 worked in a git worktree, not in your working tree; `ironbees resume r1` goes on in its worktree\.$/,
    );
  });

  it("lets a --parallel run's resume and revert through (its integration worktree's record), and a run with no record", () => {
    writeRecord(root, { ...record('r2'), kind: 'phase', integration: true });
    refuseWorktreeRun(root, 'r2', 'resume');
    refuseWorktreeRun(root, 'r2', 'revert');
    refuseWorktreeRun(root, 'r3', 'resume');
  });
});
