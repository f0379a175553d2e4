// What a run is started or steered with, checked before the machine sees it: the settings come
// from files and flags, an edited plan from a person's editor or a script.

import type { ExecutionPlan, WorkflowContext } from '../model';
import { executionPlanSchema } from '../agents/planner/terminal-tool';
import { ConfigurationError, OrchestratorError } from '../errors';

const PLAN_POLICIES: readonly string[] = ['always', 'never'];
const DIFF_POLICIES: readonly string[] = ['always', 'first', 'never'];

/** Settings come from files and flags: refuse bad ones with a message that says what is expected. */
export function checkWorkflow(context: WorkflowContext): void {
  if (!Number.isInteger(context.maxIterations) || context.maxIterations < 1) {
    throw new ConfigurationError(`maxIterations must be a whole number of at least 1 (got ${String(context.maxIterations)})`, {
      field: 'maxIterations',
    });
  }
  if (!PLAN_POLICIES.includes(context.approval?.plan)) {
    throw new ConfigurationError(`approval.plan must be ${PLAN_POLICIES.join(' or ')} (got ${String(context.approval?.plan)})`, {
      field: 'approval.plan',
    });
  }
  if (!DIFF_POLICIES.includes(context.approval?.diffs)) {
    throw new ConfigurationError(`approval.diffs must be ${DIFF_POLICIES.join(', ')} (got ${String(context.approval?.diffs)})`, {
      field: 'approval.diffs',
    });
  }
}

/** The edited plan, normalised as a submitted plan is; an OrchestratorError naming each bad field otherwise. */
export function checkedEditedPlan(stateId: string, editedPlan: unknown): ExecutionPlan {
  const parsed = executionPlanSchema.safeParse(editedPlan);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : 'plan'}: ${issue.message}`);
  throw new OrchestratorError(
    `The edited plan of run ${stateId} is not valid (${problems.join('; ')}); expected {summary, steps: [{number, description, actionType: CREATE|MODIFY|DELETE|REFACTOR, filePath, rationale}], affectedFiles, complexity: LOW|MEDIUM|HIGH}. The run still waits for its plan approval.`,
    { stateId, problems },
  );
}
