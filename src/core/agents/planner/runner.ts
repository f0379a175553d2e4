// The planner: reads the workspace with read-only tools and ends with submit_plan {spec, plan}.
// It works on a throwaway overlay, so even a misconfigured planner with an editing tool could not
// change anything. The baseline's failures and, when replanning, the person's feedback and the
// previous plan go into its first message (not the system prompt, which stays cacheable).

import type { Baseline, ExecutionPlan, PlanStep, Usage } from '../../model';
import { agentToolContext } from '../tool-context';
import { requireAgent } from '../agent-definition';
import { runToolLoop } from '../tool-loop';
import type { TerminalVerdict } from '../tool-loop';
import type { AgentRuntime } from '../types';
import type { AgentUnit } from '../unit';
import { SUBMIT_PLAN_TOOL_NAME, submitPlanTool } from './terminal-tool';
import { unknownKnownFailures } from './known-failures';

export const PLANNER_AGENT = 'planner';
export const SUBMIT_PLAN_TOOL = SUBMIT_PLAN_TOOL_NAME;

export interface PlannerInput {
  request: string;
  feedback?: string;
  previousPlan?: ExecutionPlan | null;
  baseline?: Baseline | null;
}

export interface PlannerOutput {
  spec: string;
  plan: ExecutionPlan;
  usage: Usage;
}

export async function runPlanner(rt: AgentRuntime, input: PlannerInput): Promise<PlannerOutput> {
  const agent = requireAgent(rt.agents, PLANNER_AGENT);
  const result = await runToolLoop({
    agent,
    runtime: rt,
    toolContext: agentToolContext(rt),
    userMessage: plannerMessage(input),
    terminal: { name: SUBMIT_PLAN_TOOL, accept: (raw) => acceptPlan(raw, baselineFailureNames(input.baseline)) },
  });
  return { ...result.value, usage: result.usage };
}

/** The planner as the workflow's PLAN step finds it (agents/builtin.ts). */
export const plannerAgent: AgentUnit<PlannerInput, PlannerOutput> = {
  name: PLANNER_AGENT,
  terminalTool: submitPlanTool,
  run: runPlanner,
};

/** The names of the tests failing before any change; undefined when no baseline is known. */
export function baselineFailureNames(baseline: Baseline | null | undefined): string[] | undefined {
  if (!baseline) return undefined;
  return baseline.test?.failures.map((failure) => failure.testName) ?? [];
}

/**
 * Checks what the schema cannot, and tidies what is safe to tidy (numbering, affectedFiles).
 * With the baseline's failing test names, `knownFailures` must be among them.
 */
export function acceptPlan(input: unknown, baselineFailures?: readonly string[]): TerminalVerdict<{ spec: string; plan: ExecutionPlan }> {
  const { spec, plan } = input as { spec: string; plan: ExecutionPlan };
  if (!spec.trim()) return { ok: false, error: 'spec is empty: state the intended behaviour after the change.' };
  if (plan.steps.length === 0) return { ok: false, error: 'plan.steps is empty: list at least one step with its filePath.' };
  const tooBig = plan.phases?.find((phase) => phase.steps.length > MAX_PLAN_STEPS);
  if (tooBig) {
    return {
      ok: false,
      error: `Phase "${tooBig.id}" has ${tooBig.steps.length} steps; a phase has at most ${MAX_PLAN_STEPS}. Merge the steps on one file into one, or split the phase.`,
    };
  }
  if (plan.phases && plan.phases.length > MAX_PHASES) {
    return { ok: false, error: `The plan has ${plan.phases.length} phases; a plan has at most ${MAX_PHASES}. Merge small phases.` };
  }
  if (!plan.phases && plan.steps.length > MAX_PLAN_STEPS) {
    return {
      ok: false,
      error: `plan.steps has ${plan.steps.length} steps; a plan has at most ${MAX_PLAN_STEPS}. Merge the steps on one file into one, or plan a smaller first change the person can follow up.`,
    };
  }
  const badPaths = plan.steps.map((step) => step.filePath).filter((filePath) => !isWorkspaceRelative(filePath));
  if (badPaths.length > 0) {
    return {
      ok: false,
      error: `These step paths are not workspace-relative: ${badPaths.join(', ')}. Use paths relative to the workspace root, with forward slashes.`,
    };
  }
  if (baselineFailures && plan.knownFailures?.length) {
    const unknown = unknownKnownFailures(plan.knownFailures, baselineFailures);
    if (unknown) return { ok: false, error: unknown };
  }
  const steps = tidySteps(plan.steps);
  const affectedFiles = [...new Set([...plan.affectedFiles.map(normalisePath), ...steps.map((step) => step.filePath)])];
  const phases = plan.phases?.map((phase) => {
    const phaseSteps = tidySteps(phase.steps);
    return {
      ...phase,
      steps: phaseSteps,
      affectedFiles: [...new Set([...phase.affectedFiles.map(normalisePath), ...phaseSteps.map((s) => s.filePath)])],
    };
  });
  return { ok: true, value: { spec: spec.trim(), plan: { ...plan, steps, affectedFiles, ...(phases ? { phases } : {}) } } };
}

function tidySteps(steps: readonly PlanStep[]): PlanStep[] {
  return steps.map((step, index) => ({ ...step, number: index + 1, filePath: normalisePath(step.filePath) }));
}

function normalisePath(filePath: string): string {
  return filePath.trim().replace(/\\/g, '/').replace(/^\.\//, '');
}

function isWorkspaceRelative(filePath: string): boolean {
  const p = normalisePath(filePath);
  return p !== '' && !p.startsWith('/') && !/^[a-zA-Z]:/.test(p) && !p.split('/').includes('..');
}

export function plannerMessage(input: PlannerInput): string {
  const parts = [`# Request\n\n${input.request.trim()}`];
  const baseline = input.baseline ? summariseBaseline(input.baseline) : null;
  if (baseline) parts.push(`# Before any change (baseline)\n\n${baseline}`);
  if (input.previousPlan) {
    parts.push(`# Your previous plan\n\n\`\`\`json\n${JSON.stringify(input.previousPlan, null, 2)}\n\`\`\``);
  }
  if (input.feedback?.trim() && input.previousPlan) {
    parts.push(
      `# The person rejected the previous plan, saying\n\n${input.feedback.trim()}\n\n` +
        'Revise the plan to address this feedback. Explore again only where the feedback needs it.',
    );
  } else if (input.feedback?.trim()) {
    // No plan yet: the planning was escalated (a request for help) and the person answered.
    parts.push(`# Guidance from the person\n\n${input.feedback.trim()}\n\nPlan with this guidance in mind.`);
  }
  parts.push(`Explore the workspace with your read-only tools, then call ${SUBMIT_PLAN_TOOL} once.`);
  return parts.join('\n\n');
}

const LISTED = 10;
/** One coder attempt carries the plan out whole within its turn budget: more steps than this do not fit. */
export const MAX_PLAN_STEPS = 20;
/** Phases run one after another, each a whole coder loop: more than this is a run too long to follow. */
export const MAX_PHASES = 8;

/** What was already broken, so the plan neither chases it nor gets blamed for it. */
export function summariseBaseline(baseline: Baseline): string {
  const lines: string[] = [];
  const build = baseline.build;
  if (build.success) {
    lines.push('- Build: succeeded.');
  } else {
    lines.push(`- Build: failed with ${build.errors.length} error(s) before any change:`);
    for (const error of build.errors.slice(0, LISTED)) {
      const where = error.filePath ? `${error.filePath}(${error.line},${error.column})` : '(no file)';
      lines.push(`  - ${where}: ${error.code} ${error.message}`);
    }
    if (build.errors.length > LISTED) lines.push(`  - … and ${build.errors.length - LISTED} more`);
  }
  const test = baseline.test;
  if (!test) {
    lines.push('- Tests: not run (the build failed or no test project was found).');
  } else if (test.failed === 0) {
    lines.push(`- Tests: ${test.passed} passed, ${test.skipped} skipped, none failing.`);
  } else {
    lines.push(`- Tests: ${test.failed} of ${test.total} failing before any change (every name, exactly as knownFailures takes it):`);
    // Every name, the first ones with their message: the planner may have to name any of them.
    test.failures.forEach((failure, index) => {
      lines.push(index < LISTED ? `  - ${failure.testName}: ${firstLine(failure.message)}` : `  - ${failure.testName}`);
    });
    const unnamed = test.failed - test.failures.length;
    if (unnamed > 0) lines.push(`  - (${unnamed} more failing test(s) whose names were not kept)`);
  }
  if (!build.success || (test && test.failed > 0)) {
    lines.push('These failures are pre-existing: plan to fix them only if the request is about them.');
    if (test && test.failed > 0) {
      lines.push(
        'Every test must pass for the run to succeed, unless you name a failing test the request is not about in `plan.knownFailures`.',
      );
    }
  }
  return lines.join('\n');
}

function firstLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim()) ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line.trim();
}
