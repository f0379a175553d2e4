// Approving a tool call with side effects (an MCP tool that writes) from the terminal. The
// orchestrator is built before the session that can answer exists, so it is handed a relay; the
// session (driveRun) plugs in its prompt, or approve-all for --yes, while it follows the run.
// With nothing plugged in, the call is refused: nobody is there to say yes.

import type { ToolApprovalRequest, ToolApprovalVerdict } from '../core/tools/types';
import type { ToolApprover } from '../core/workflow/tool-approval';
import type { GateIo } from './approvals';
import { PromptClosedError } from './prompts';
import { visibleControls } from '../core/platform/text';

const SHOWN_INPUT_CHARS = 2_000;

export type ToolApprovalAnswerer = (request: ToolApprovalRequest & { runId: string }) => Promise<ToolApprovalVerdict>;

export class ToolApprovalRelay {
  private answerer: ToolApprovalAnswerer | null = null;

  /** What the orchestrator calls (OrchestratorDeps.askToolApproval). */
  readonly ask: ToolApprover = (request) =>
    this.answerer ? this.answerer(request) : Promise.resolve({ approved: false, reason: 'no one is following the run to approve it' });

  /** Plugs in the session's answer; returns the unplug. */
  attach(answerer: ToolApprovalAnswerer): () => void {
    this.answerer = answerer;
    return () => {
      if (this.answerer === answerer) this.answerer = null;
    };
  }
}

/** --yes: the person approved every action of the run up front. */
export const approveEveryTool: ToolApprovalAnswerer = async () => ({ approved: true });

/** Shows the call and asks yes/no; a "no" may carry a reason, which the model is told. */
export async function askToolDecision(io: GateIo, request: ToolApprovalRequest): Promise<ToolApprovalVerdict> {
  // The call as the model (or an MCP server) wrote it: control characters shown as text.
  const input = visibleControls(JSON.stringify(request.input ?? {}, null, 2));
  io.show(`\n${io.colors.bold(`The agent wants to call ${visibleControls(request.tool)}`)} (it has side effects outside the workspace):`);
  io.show(io.colors.dim(visibleControls(request.description)));
  io.show(input.length > SHOWN_INPUT_CHARS ? `${input.slice(0, SHOWN_INPUT_CHARS)}\n… (${input.length} characters)` : input);
  try {
    for (;;) {
      const answer = (await io.prompter.ask(`Allow this call? [y]es / [n]o: `)).toLowerCase();
      if (answer === 'y' || answer === 'yes') return { approved: true };
      if (answer === 'n' || answer === 'no') {
        const reason = await io.prompter.ask('Why not? (told to the agent; optional) ');
        return { approved: false, ...(reason ? { reason } : {}) };
      }
      io.show(io.colors.yellow('Please answer y or n.'));
    }
  } catch (error) {
    // EOF or Ctrl-C while asking: nothing was approved; the run's own gates handle the interruption.
    if (error instanceof PromptClosedError) return { approved: false, reason: 'no answer came from the terminal' };
    throw error;
  }
}
