// The whole command line as one function of (argv, streams) → exit code, so tests drive it without
// spawning a process. main.ts only wires it to the real process.

import { registerCredentialValues } from '../core/platform/child-env';
import { errorMessage } from '../core/errors';
import { closeWorkspaceMcpSources } from '../core/mcp/workspace-source';
import { version } from '../../package.json';
import { parseCliArgs } from './args';
import { resumeCommand } from './commands/resume';
import { revertCommand } from './commands/revert';
import { runCommand } from './commands/run';
import { runInWorktree } from './commands/worktree-run';
import { applyCommand } from './commands/apply';
import { cleanLeftovers } from './commands/worktree-leftovers';
import { resumeInWorktree, revertWorktreeRun } from './commands/worktree-resume';
import { worktreeRunRecord } from '../core/workflow/worktree-runs';
import { runsCommand } from './commands/runs';
import { traceCommand } from './commands/trace';
import { checkpointsCommand, rewindCommand } from './commands/checkpoints';
import { benchCommand } from './commands/bench/bench';
import type { CommandContext } from './commands/context';
import { ExitCode, UsageError, exitCodeForError } from './exit-codes';
import type { CliIo } from './terminal';
import { StderrLines } from './stderr-lines';
import { colorsFor, createStderrLogger, writeLine } from './terminal';
import { usageText } from './usage';
import type { CliDeps } from './wiring';
import { defaultCliDeps } from './wiring';

export type { CliIo } from './terminal';
export type { CliDeps, Runtime, RuntimeOptions } from './wiring';

export async function runCli(argv: readonly string[], io: CliIo, deps: Partial<CliDeps> = {}): Promise<number> {
  // The credential values in the environment are masked in everything the CLI prints or writes.
  registerCredentialValues(io.env);
  const colors = colorsFor(io.stderr, io.env);
  const lines = new StderrLines(io.stderr);
  const ctx: CommandContext = {
    io,
    colors,
    lines,
    logger: createStderrLogger(io.stderr, io.env, colors, (text) => lines.line(text)),
    deps: { ...defaultCliDeps, ...deps },
  };
  try {
    const command = parseCliArgs(argv, io.cwd ?? process.cwd());
    // What a killed `run --worktree` left (its worktree, its branch) is cleaned before anything else.
    if ('workspace' in command && command.workspace) await cleanLeftovers(ctx, command.workspace);
    switch (command.command) {
      case 'help':
        writeLine(io.stdout, usageText(command.topic));
        return ExitCode.SUCCESS;
      case 'version':
        writeLine(io.stdout, version);
        return ExitCode.SUCCESS;
      case 'run':
        return await (command.worktree ? runInWorktree(ctx, command) : runCommand(ctx, command));
      case 'resume': {
        // A run that worked in its own worktree goes on there, never in the working tree.
        const record = worktreeRunRecord(command.workspace, command.runId);
        return await (record ? resumeInWorktree(ctx, command, record) : resumeCommand(ctx, command));
      }
      case 'runs':
        return await runsCommand(ctx, command);
      case 'revert': {
        const record = worktreeRunRecord(command.workspace, command.runId);
        return await (record ? revertWorktreeRun(ctx, command, record) : revertCommand(ctx, command));
      }
      case 'apply':
        return await applyCommand(ctx, command);
      case 'trace':
        return await traceCommand(ctx, command);
      case 'bench':
        return await benchCommand(ctx, command);
      case 'checkpoints':
        return await checkpointsCommand(ctx, command);
      case 'rewind':
        return await rewindCommand(ctx, command);
      case 'mcp':
        // The MCP server (its SDK, HTTP stack and schemas) loads only for `ironbees mcp`.
        return await (await import('./commands/mcp.js')).mcpCommand(ctx, command);
      case 'acp':
        // The ACP SDK loads only for `ironbees acp`.
        return await (await import('./commands/acp.js')).acpCommand(ctx, command);
      case 'serve':
        // The HTTP stack and the metrics load only for `ironbees serve`.
        return await (await import('./commands/serve.js')).serveCommand(ctx, command);
    }
  } catch (error) {
    writeLine(io.stderr, colors.red(`error: ${errorMessage(error)}`));
    if (error instanceof UsageError) writeLine(io.stderr, `\n${usageText(error.command)}`);
    const code = exitCodeForError(error);
    // A bug, not a setup problem: show where, for the report.
    if (code === ExitCode.FAILED && error instanceof Error && io.env.IRONBEES_DEBUG) writeLine(io.stderr, error.stack ?? '');
    return code;
  } finally {
    // MCP servers the run started (stdio children) end with the command, not with the process.
    await closeWorkspaceMcpSources().catch((error: unknown) => ctx.logger.warn(`closing MCP servers: ${errorMessage(error)}`));
  }
}
