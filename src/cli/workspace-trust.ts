// The CLI's side of the trust gate (core/runtime/trust.ts): `--trust-workspace`, a folder trusted
// before, or — only on a terminal — the person's answer to a question listing what the workspace
// defines. A pipe, a script or `--yes` never answers it: without a person the items are ignored,
// each named on one stderr line, and the built-in agents run.

import { decideWorkspaceTrust, trustQuestion } from '../core/runtime';
import type { WorkspaceDefinition } from '../core/runtime';
import { LinePrompter, PromptClosedError } from './prompts';
import { isTty } from './terminal';
import type { CommandContext } from './commands/context';

export interface CliTrustOptions {
  workspace: string;
  /** --trust-workspace. */
  flag: boolean;
  /** Whether the command may ask on the terminal (not `ironbees mcp`, whose stdin is the protocol). */
  mayAsk: boolean;
}

export async function cliWorkspaceTrust(ctx: Pick<CommandContext, 'io' | 'lines' | 'colors'>, options: CliTrustOptions): Promise<boolean> {
  const { io } = ctx;
  const decision = await decideWorkspaceTrust({
    workspaceRoot: options.workspace,
    flag: options.flag,
    env: io.env,
    notice: (line) => ctx.lines.line(ctx.colors.yellow(line)),
    // stdin is looked at only when there is something to ask about (a run with --yes may never touch it).
    ...(options.mayAsk ? { ask: (defined: readonly WorkspaceDefinition[]) => askOnTerminal(ctx, options.workspace, defined) } : {}),
  });
  return decision.trusted;
}

/** A person at a terminal answers; a pipe or a file is no person, and is not asked. */
async function askOnTerminal(
  ctx: Pick<CommandContext, 'io'>,
  workspace: string,
  defined: readonly WorkspaceDefinition[],
): Promise<boolean> {
  if (!isTty(ctx.io.stdin) || !isTty(ctx.io.stderr)) return false;
  const prompter = new LinePrompter({ input: ctx.io.stdin, output: ctx.io.stderr, terminal: true });
  try {
    const answer = (await prompter.ask(trustQuestion(workspace, defined))).toLowerCase();
    return answer === 'y' || answer === 'yes';
  } catch (error) {
    if (error instanceof PromptClosedError) return false;
    throw error;
  } finally {
    prompter.close();
  }
}
