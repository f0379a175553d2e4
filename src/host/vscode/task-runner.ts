// `dotnet build` and `dotnet test` as VS Code tasks: a CustomExecution whose pseudoterminal runs the
// command with the Node process runner (same time limits, same process-tree kill), so the person
// watches the output in the terminal panel and `$msCompile` fills the Problems panel, while the
// validator still gets the exit code and the output to parse. Other dotnet calls (version checks,
// property queries) are quick and run directly, without a terminal.

import * as vscode from 'vscode';
import type { Logger, ProcessRunner, RunOptions, RunResult } from '../../core/host';
import { errorMessage } from '../../core/errors';
import { sandboxActive } from '../../core/platform/sandbox';
import { NodeProcessRunner } from '../node/process-runner';
import { TEST_VERBS, shouldRevealTerminal } from './terminal-reveal';

export const TASK_TYPE = 'ironbees';
export const TASK_SOURCE = 'Ironbees';
// `run`: a Microsoft.Testing.Platform test project run directly (`dotnet run --no-build -- <platform arguments>`);
// `vstest` and `exec`: a test project run from its built assembly (`dotnet vstest <dll>`, `dotnet exec <app.dll>`).
const TASK_VERBS = new Set(['build', 'test', 'restore', 'run', 'vstest', 'exec']);
/** A task that has not opened its terminal by then never will (tasks disabled, host shutting down). */
const TASK_START_PATIENCE_MS = 15_000;

export interface TaskRunnerOptions {
  folder?: vscode.WorkspaceFolder;
  logger: Logger;
  direct?: ProcessRunner;
}

/** Called for every task this runner starts: tests watch the tasks, the controller shows progress. */
export type TaskStartedListener = (name: string) => void;

let taskCounter = 0;

export class TaskProcessRunner implements ProcessRunner {
  private readonly direct: ProcessRunner;
  /** A task's command runs through the direct runner, which honours RunOptions.sandbox. */
  get sandboxes(): boolean | undefined {
    return this.direct.sandboxes;
  }
  private readonly startedEmitter = new vscode.EventEmitter<string>();
  readonly onDidStartTask: vscode.Event<string> = this.startedEmitter.event;

  constructor(private readonly options: TaskRunnerOptions) {
    this.direct = options.direct ?? new NodeProcessRunner();
  }

  run(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
    if (command !== 'dotnet' || !TASK_VERBS.has(args[0] ?? '')) return this.direct.run(command, args, options);
    return this.runAsTask(command, args, options).catch((error: unknown) => {
      if (error instanceof TaskUnavailableError) {
        this.options.logger.warn(`Running \`${command} ${args[0]}\` without a task: ${error.message}`);
        return this.direct.run(command, args, options);
      }
      throw error;
    });
  }

  dispose(): void {
    this.startedEmitter.dispose();
  }

  private async runAsTask(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
    // A labelled command (the baseline) says so in its terminal's name: "Ironbees: baseline dotnet test".
    const name = `${options.label ? `${options.label} ` : ''}${command} ${args[0]}`;
    const stop = new AbortController();
    const onAbort = (): void => stop.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const writer = new vscode.EventEmitter<string>();
    const closer = new vscode.EventEmitter<number>();
    let opened: () => void = () => undefined;
    const openedPromise = new Promise<void>((resolve) => (opened = resolve));
    let finished: (result: Promise<RunResult>) => void = () => undefined;
    const resultPromise = new Promise<Promise<RunResult>>((resolve) => (finished = resolve));

    const pty: vscode.Pseudoterminal = {
      onDidWrite: writer.event,
      onDidClose: closer.event,
      open: () => {
        opened();
        if (options.label === 'baseline')
          writer.fire(
            `\x1b[1mIronbees baseline: the build and tests before any edit. What fails here already failed; it is not the agent's doing.\x1b[0m\r\n`,
          );
        writer.fire(
          `\x1b[2m> ${command} ${args.join(' ')}${options.sandbox && this.sandboxes && sandboxActive() ? ' (in the sandbox)' : ''}\x1b[0m\r\n`,
        );
        const running = this.direct.run(command, args, {
          ...options,
          signal: stop.signal,
          onOutput: (chunk, stream) => {
            writer.fire(toTerminalText(chunk));
            options.onOutput?.(chunk, stream);
          },
        });
        finished(running);
        running.then(
          (result) => {
            writer.fire(`\r\n\x1b[2m${describeEnd(result)}\x1b[0m\r\n`);
            closer.fire(result.exitCode ?? 1);
          },
          (error: unknown) => {
            writer.fire(`\r\n${errorMessage(error)}\r\n`);
            closer.fire(1);
          },
        );
      },
      // The person closed the terminal: that stops the command, as Ctrl-C would.
      close: () => stop.abort(),
    };

    const task = new vscode.Task(
      { type: TASK_TYPE, step: args[0], id: ++taskCounter },
      this.options.folder ?? vscode.TaskScope.Workspace,
      name,
      TASK_SOURCE,
      new vscode.CustomExecution(async () => pty),
      '$msCompile',
    );
    task.group = TEST_VERBS.has(args[0] ?? '') ? vscode.TaskGroup.Test : vscode.TaskGroup.Build;
    // The terminal stays closed (the panel shows what the run found; the terminal list has the output
    // for whoever asks): a failing baseline test is expected, and a red terminal at every run reads as
    // the agent failing. Only a baseline that cannot even build opens it (below).
    task.presentationOptions = {
      reveal: vscode.TaskRevealKind.Never,
      focus: false,
      panel: vscode.TaskPanelKind.Shared,
      clear: true,
      showReuseMessage: false,
    };

    try {
      let execution: vscode.TaskExecution;
      try {
        execution = await vscode.tasks.executeTask(task);
      } catch (error) {
        throw new TaskUnavailableError(errorMessage(error));
      }
      this.startedEmitter.fire(name);
      const started = await Promise.race([openedPromise.then(() => true), delay(TASK_START_PATIENCE_MS).then(() => false)]);
      if (!started) {
        execution.terminate();
        throw new TaskUnavailableError('the task did not start');
      }
      const result = await await resultPromise;
      if (shouldRevealTerminal(options.label, args[0] ?? '', result)) revealTerminalOf(name);
      return result;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      // The pty's last write and close are fired before the promise settles; the emitters can go.
      setTimeout(() => {
        writer.dispose();
        closer.dispose();
      }, 1000);
    }
  }
}

class TaskUnavailableError extends Error {}

function revealTerminalOf(name: string): void {
  const terminal = [...vscode.window.terminals].reverse().find((t) => t.name.includes(name));
  terminal?.show(true);
}

/** A terminal needs CRLF; dotnet writes LF. */
export function toTerminalText(chunk: string): string {
  return chunk.replace(/\r?\n/g, '\r\n');
}

function describeEnd(result: RunResult): string {
  const seconds = (result.durationMs / 1000).toFixed(1);
  if (result.timedOut) return `Stopped at the time limit after ${seconds} s.`;
  if (result.cancelled) return `Cancelled after ${seconds} s.`;
  return `Exited with code ${result.exitCode} after ${seconds} s.`;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
