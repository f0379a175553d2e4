// `run --parallel N`: a whole number from 1 (default 1, today's run), kept in the run's context only
// when above 1; anything else, or with --worktree, is a usage error (exit 2, nothing changed).

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { parseCliArgs } from '../../../src/cli/args';
import type { RunArgs } from '../../../src/cli/args';
import { workflowContextFor } from '../../../src/cli/commands/run';
import { ExitCode, UsageError, exitCodeForError } from '../../../src/cli/exit-codes';
import { usageText } from '../../../src/cli/usage';

const CWD = path.resolve('/tmp/ws-root');

function run(...flags: string[]): RunArgs {
  return parseCliArgs(['run', 'Do it', ...flags], CWD) as RunArgs;
}

function refused(...flags: string[]): string {
  try {
    run(...flags);
  } catch (error) {
    assert.ok(error instanceof UsageError);
    assert.equal(exitCodeForError(error), ExitCode.USAGE);
    return error.message;
  }
  return assert.fail(`--parallel ${flags.join(' ')} was accepted`);
}

describe('run --parallel N', () => {
  it('defaults to one phase at a time, with nothing added to the run', () => {
    assert.equal(run().parallel, undefined);
    assert.equal(run('--parallel', '1').parallel, undefined);
    assert.equal('parallel' in workflowContextFor(run(), undefined), false);
  });

  it('keeps N above 1 in the run context', () => {
    assert.equal(run('--parallel', '3').parallel, 3);
    assert.equal(workflowContextFor(run('--parallel', '2'), undefined).parallel, 2);
  });

  it('refuses what is not a whole number from 1, and --worktree beside it', () => {
    assert.equal(refused('--parallel', '0'), '--parallel must be a whole number from 1 to 16 (got "0").');
    assert.equal(refused('--parallel', '2.5'), '--parallel must be a whole number from 1 to 16 (got "2.5").');
    assert.equal(refused('--parallel', 'two'), '--parallel must be a whole number from 1 to 16 (got "two").');
    assert.equal(refused('--parallel', '17'), '--parallel must be a whole number from 1 to 16 (got "17").');
    assert.equal(refused('--parallel', '2', '--worktree'), '--parallel goes without --worktree: its phases already work in worktrees.');
  });

  it('is in the run usage', () => {
    assert.match(usageText('run'), /--parallel N {15}a plan in phases: at most N phases whose dependencies are complete run/);
  });
});
