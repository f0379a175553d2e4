// `ironbees bench <task-file>`: each task on a fresh copy of its repository, run in this process
// exactly as `ironbees run --yes --json` runs it (same runtime, same gates answered yes, the cost cap
// as --max-cost), one after the other; then the report from what each run recorded.

import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { ConfigurationError, errorMessage } from '../../../core/errors';
import { DEFAULT_REVIEW_THRESHOLD } from '../../../core/model';
import { DEFAULT_BUILD_TIMEOUT_SECONDS, DEFAULT_TEST_TIMEOUT_SECONDS } from '../../args';
import type { BenchArgs, RunArgs } from '../../args';
import { ExitCode } from '../../exit-codes';
import { writeLine } from '../../terminal';
import type { CommandContext } from '../context';
import { runCommand } from '../run';
import type { BenchReport, BenchTaskReport } from './report';
import { renderHtml, renderMarkdown, totalsOf } from './report';
import { figuresOf, onlyRunId, readTaskFigures } from './run-figures';
import type { TaskFigures } from './run-figures';
import type { BenchTask } from './task-file';
import { readTaskFile } from './task-file';
import { unskipped } from './exercism';

const run = promisify(execFile);
/** Build output and earlier runs are not part of a task's starting point. */
const SKIPPED = new Set(['bin', 'obj', 'TestResults', '.ironbees', 'node_modules']);

/** A fresh copy of the task's repository in a new temp folder. */
export async function freshCopy(task: BenchTask): Promise<string> {
  const dir = await fs.mkdtemp(path.join(tmpdir(), `ironbees-bench-${task.id}-`));
  if (task.repoUrl && task.commit) {
    // No shell; "--" ends the options, so the URL is never read as one.
    await run('git', ['clone', '--quiet', '--', task.repoUrl, dir], { timeout: 10 * 60_000 });
    await run('git', ['-C', dir, 'checkout', '--quiet', '--detach', task.commit], { timeout: 60_000 });
  } else {
    await copyFolder(task, dir);
  }
  await unskipTests(task, dir);
  return dir;
}

async function copyFolder(task: BenchTask, dir: string): Promise<void> {
  const source = task.repo ?? '';
  if (!(await fs.stat(source).catch(() => null))?.isDirectory()) {
    throw new ConfigurationError(`Bench task "${task.id}": the repo ${source} is not a folder.`);
  }
  await fs.cp(source, dir, { recursive: true, filter: (src) => !SKIPPED.has(path.basename(src)) });
}

/** The task's skipped tests made to run, in its copy only; a link is not followed out of the copy. */
async function unskipTests(task: BenchTask, dir: string): Promise<void> {
  const root = await fs.realpath(dir);
  for (const file of task.unskipTests ?? []) {
    const target = path.join(dir, file);
    const real = await fs.realpath(target).catch(() => '');
    if (!real.startsWith(root + path.sep) || !(await fs.lstat(target).catch(() => null))?.isFile()) {
      throw new ConfigurationError(`Bench task "${task.id}": the test file ${file} is not a plain file in the repository.`);
    }
    await fs.writeFile(target, unskipped(await fs.readFile(target, 'utf8')));
  }
}

function runArgsFor(args: BenchArgs, task: BenchTask, workspace: string): RunArgs {
  return {
    command: 'run',
    request: task.request,
    workspace,
    trustWorkspace: false,
    yes: true,
    json: true,
    demo: args.demo,
    activity: 'quiet',
    activityJson: false,
    maxIterations: args.maxIterations,
    ...(args.model ? { model: args.model } : {}),
    ...(args.provider ? { provider: args.provider } : {}),
    planApproval: 'always',
    diffApproval: 'always',
    buildTimeoutMs: DEFAULT_BUILD_TIMEOUT_SECONDS * 1000,
    testTimeoutMs: DEFAULT_TEST_TIMEOUT_SECONDS * 1000,
    sandbox: args.sandbox,
    // A bench task is run as `ironbees run` runs it: reviewed, by default.
    review: { mode: 'required', threshold: DEFAULT_REVIEW_THRESHOLD },
    ...(args.maxCostUsd !== undefined ? { budget: { maxCostUsd: args.maxCostUsd } } : {}),
  };
}

/** The run's JSON state lines are not the bench's output: they are dropped (the run folder keeps them). */
function sink(): NodeJS.WritableStream {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

function noRunFigures(task: BenchTask, wallMs: number): TaskFigures {
  return figuresOf(task, { runId: null, state: null, validations: [], baseline: null, events: [], handoff: '', wallMs });
}

async function runTask(ctx: CommandContext, args: BenchArgs, task: BenchTask): Promise<{ report: BenchTaskReport; code: number | null }> {
  const started = Date.now();
  let workspace: string | null = null;
  let failure: string | null = null;
  let code: number | null = null;
  try {
    workspace = await freshCopy(task);
    code = await runCommand({ ...ctx, io: { ...ctx.io, stdout: sink() } }, runArgsFor(args, task, workspace));
  } catch (error) {
    failure = errorMessage(error);
  }
  const wallMs = Date.now() - started;
  const figures = workspace ? await readTaskFigures(task, workspace, wallMs) : noRunFigures(task, wallMs);
  if (workspace) {
    const runId = await onlyRunId(workspace);
    // The run's folder (state, validations, events, HANDOFF.md) stays beside the report, laid out as a
    // workspace: `ironbees trace <runId> -w DIR/runs/<task id>` prints its transcript.
    if (runId) {
      const kept = path.join(args.out, 'runs', task.id, '.ironbees', 'runs', runId);
      await fs.cp(path.join(workspace, '.ironbees', 'runs', runId), kept, { recursive: true });
    }
    if (args.keep) writeLine(ctx.io.stderr, `bench: ${task.id} kept in ${workspace}`);
    else await fs.rm(workspace, { recursive: true, force: true });
  }
  return { report: { id: task.id, request: task.request, ...figures, ...(failure ? { pass: false, note: failure } : {}) }, code };
}

export async function benchCommand(ctx: CommandContext, args: BenchArgs): Promise<number> {
  const tasks = await readTaskFile(args.taskFile);
  await fs.mkdir(args.out, { recursive: true });
  const startedAt = new Date().toISOString();
  const reports: BenchTaskReport[] = [];
  let interrupted = false;
  for (const [index, task] of tasks.entries()) {
    writeLine(ctx.io.stderr, ctx.colors.bold(`bench: task ${index + 1}/${tasks.length} ${task.id}`));
    const { report, code } = await runTask(ctx, args, task);
    writeLine(ctx.io.stderr, `bench: ${task.id} ${report.pass ? ctx.colors.green('pass') : ctx.colors.red('fail')}`);
    reports.push(report);
    // Ctrl-C stops the bench, not only the task's run: the report covers the tasks that ran.
    if (code === ExitCode.INTERRUPTED) {
      interrupted = true;
      break;
    }
  }
  const report: BenchReport = {
    schemaVersion: 1,
    startedAt,
    model: args.demo ? 'demo (scripted)' : `${args.provider ?? 'agent.yaml'}${args.model ? ` ${args.model}` : ''}`,
    tasks: reports,
    totals: totalsOf(reports),
  };
  await fs.writeFile(path.join(args.out, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  await fs.writeFile(path.join(args.out, 'report.md'), renderMarkdown(report));
  await fs.writeFile(path.join(args.out, 'report.html'), renderHtml(report));
  writeLine(ctx.io.stdout, `${report.totals.passed}/${report.totals.tasks} tasks passed · report in ${args.out}`);
  if (interrupted) return ExitCode.INTERRUPTED;
  return report.totals.passed === tasks.length ? ExitCode.SUCCESS : ExitCode.FAILED;
}
