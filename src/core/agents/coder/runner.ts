// The coder: carries out the approved plan on the staged overlay and ends with submit_changes
// {summary}. Its edits are whatever the overlay holds at that moment. On later iterations the
// error context of the failed validation (and the person's rejections and guidance) lead its
// first message.

import type { ErrorContext, ExecutionPlan, FileEdit, PhaseBrief, Usage } from '../../model';
import { phaseSections } from './phase-brief';
import { compileGate } from '../../csharp/engine/compile-gate';
import type { StagedOverlay } from '../../workspace/overlay';
import { agentToolContext } from '../tool-context';
import { requireAgent } from '../agent-definition';
import { runToolLoop } from '../tool-loop';
import type { TerminalVerdict } from '../tool-loop';
import type { AgentRuntime } from '../types';
import type { AgentUnit } from '../unit';
import { SUBMIT_CHANGES_TOOL_NAME, submitChangesTool } from './terminal-tool';
import { CoderBlockedError, isBlockedSummary, outsidePlan, outsidePlanMessage } from './plan-scope';
import { appliedSection } from './applied';
import type { AppliedChange } from './applied';

export const CODER_AGENT = 'coder';
export const SUBMIT_CHANGES_TOOL = SUBMIT_CHANGES_TOOL_NAME;

export interface CoderInput {
  request: string;
  spec: string;
  plan: ExecutionPlan;
  errorContext: ErrorContext | null;
  iteration: number;
  overlay: StagedOverlay;
  /** Earlier attempts' changes already on disk (told first on a retry). */
  applied?: readonly AppliedChange[];
  /** In a plan of phases: the phase this coder carries out (`plan` is its part) and what the completed ones did. */
  phase?: PhaseBrief;
}

export interface CoderOutput {
  summary: string;
  edits: FileEdit[];
  usage: Usage;
}

export const NOTHING_CHANGED_MESSAGE =
  'You changed nothing: no file differs from the workspace. If the plan needs a change, make it with ' +
  'str_replace_based_edit_tool and then call submit_changes again. If nothing needs to change, call ' +
  'submit_changes again and say why in the summary.';

export async function runCoder(rt: AgentRuntime, input: CoderInput): Promise<CoderOutput> {
  const agent = requireAgent(rt.agents, CODER_AGENT);
  let warnedNoEdits = false;
  let questionedScope = false;
  let bounced = 0;
  const accept = async (raw: unknown): Promise<TerminalVerdict<{ summary: string; edits: FileEdit[]; blocked?: boolean }>> => {
    const summary = String((raw as { summary: string }).summary ?? '').trim();
    // The coder says the plan or a test is wrong: the run stops there and the person decides.
    if (isBlockedSummary(summary)) return { ok: true, value: { summary, edits: [], blocked: true } };
    const edits = await input.overlay.edits();
    const outside = outsidePlan(input.plan, edits);
    if (outside.length > 0 && !questionedScope) {
      questionedScope = true;
      return { ok: false, error: outsidePlanMessage(outside, input.plan) };
    }
    // Submitting nothing is usually a slip (an edit that failed unnoticed), so it is questioned
    // once; a second submission is taken at its word.
    if (edits.length === 0 && !warnedNoEdits) {
      warnedNoEdits = true;
      return { ok: false, error: NOTHING_CHANGED_MESSAGE };
    }
    // No diff that does not compile reaches review while rounds are left (compile-gate.ts).
    const gate = await compileGate({ host: rt.host, overlay: input.overlay, trace: rt.trace, signal: rt.signal, bounced });
    if (!gate.pass) {
      bounced++;
      return { ok: false, error: gate.message };
    }
    const said = summary || '(no summary given)';
    return { ok: true, value: { summary: gate.note ? `${said}\n\n${gate.note}` : said, edits } };
  };
  const result = await runToolLoop({
    agent,
    runtime: rt,
    toolContext: agentToolContext(rt, input.overlay),
    userMessage: coderMessage(input),
    terminal: { name: SUBMIT_CHANGES_TOOL, accept },
  });
  if (result.value.blocked) throw new CoderBlockedError(result.value.summary, result.usage);
  return { summary: result.value.summary, edits: result.value.edits, usage: result.usage };
}

/** The coder as the workflow's CODE step finds it (agents/builtin.ts). */
export const coderAgent: AgentUnit<CoderInput, CoderOutput> = {
  name: CODER_AGENT,
  terminalTool: submitChangesTool,
  run: runCoder,
};

export function coderMessage(input: Omit<CoderInput, 'overlay'>): string {
  const parts: string[] = [];
  const context = input.errorContext;
  const applied = context ? appliedSection(input.applied ?? []) : null;
  if (applied) parts.push(applied);
  if (context) parts.push(...retrySections(context, input.iteration));
  parts.push(`# Request\n\n${input.request.trim()}`);
  parts.push(`# Specification\n\n${input.spec.trim()}`);
  if (input.phase) parts.push(...phaseSections(input.phase));
  parts.push(`# ${input.phase ? 'Approved plan for this phase' : 'Approved plan'}\n\n${renderPlan(input.plan)}`);
  parts.push(
    context
      ? `Fix the problems above, keeping to the plan, then call ${SUBMIT_CHANGES_TOOL}.`
      : `Carry out the plan with your tools, then call ${SUBMIT_CHANGES_TOOL}. The system builds and tests afterwards.`,
  );
  return parts.join('\n\n');
}

function retrySections(context: ErrorContext, iteration: number): string[] {
  const failed = context.source === 'review' ? 'code review' : 'validation';
  const sections = [
    `# Attempt ${iteration}: your previous attempt did not pass ${failed}\n\n${context.text.trim()}\n\n` +
      'The workspace already contains the accepted part of your previous attempt; build on it, do not redo it.',
  ];
  // The rendered text may already carry these; repeat them only when it does not.
  if (context.rejections?.trim() && !context.text.includes(context.rejections.trim())) {
    sections.push(`# Changes the person rejected\n\n${context.rejections.trim()}`);
  }
  if (context.guidance?.trim() && !context.text.includes(context.guidance.trim())) {
    sections.push(`# Guidance from the person\n\n${context.guidance.trim()}`);
  }
  return sections;
}

export function renderPlan(plan: ExecutionPlan): string {
  const steps = plan.steps.map(
    (step) =>
      `${step.number}. ${step.actionType} \`${step.filePath}\`: ${step.description}${step.rationale ? ` (why: ${step.rationale})` : ''}`,
  );
  const known = plan.knownFailures?.length
    ? ['', `Tests already failing that the plan leaves alone (do not change them): ${plan.knownFailures.join(', ')}`]
    : [];
  return [`${plan.summary} (complexity ${plan.complexity})`, '', ...steps, ...known].join('\n');
}
