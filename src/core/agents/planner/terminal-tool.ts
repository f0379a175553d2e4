// The planner's terminal tool, submit_plan {spec, plan}: its arguments are the result; the agent
// loop treats a valid call as terminal. The plan schema is
// the public contract shape, lenient only where it cannot change meaning (case, numbers as text,
// a missing rationale, a plan sent as a JSON string).

import { z } from 'zod';
import type { ExecutionPlan, PlanPhase, PlanStep } from '../../model';
import { phaseGraphProblem } from '../../phase-graph';
import { parseJsonText, upperCased } from '../../tools/workspace/lenient';
import { terminalTool } from '../unit';

const ACTION_TYPES = ['CREATE', 'MODIFY', 'DELETE', 'REFACTOR'] as const;
const COMPLEXITIES = ['LOW', 'MEDIUM', 'HIGH'] as const;

const planStepSchema = z.object({
  number: z.coerce.number().int().positive().meta({ type: 'integer', description: 'Step number, from 1' }),
  description: z.string().min(1).describe('What to do'),
  actionType: z.preprocess(upperCased, z.enum(ACTION_TYPES)).meta({ type: 'string', enum: [...ACTION_TYPES] }),
  filePath: z.string().describe('Workspace-relative path of the file the step touches'),
  rationale: z
    .preprocess((v) => (v === null ? undefined : v), z.string().default(''))
    .meta({ type: 'string', description: 'Why this step is needed' }),
});

const stepsSchema = z.preprocess(parseJsonText, z.array(planStepSchema).min(1, 'a plan needs at least one step'));
const affectedFilesSchema = z.preprocess(
  (v) => (v === null ? undefined : parseJsonText(v)),
  z.array(z.string()).optional().meta({ description: 'Every file the plan creates, modifies or deletes' }),
);

const planPhaseSchema = z
  .object({
    id: z.coerce.string().trim().min(1, 'a phase needs an id').meta({ type: 'string', description: 'Short unique id, e.g. "fix"' }),
    name: z.string().trim().min(1, 'a phase needs a name').describe('A few words a person reads in the progress'),
    description: z
      .preprocess((v) => (v === null ? undefined : v), z.string().default(''))
      .meta({ type: 'string', description: 'What this phase achieves; its coder sees this, not the other phases' }),
    dependencies: z
      .preprocess((v) => (v === null ? undefined : parseJsonText(v)), z.array(z.coerce.string().trim()).default([]))
      .meta({ type: 'array', items: { type: 'string' }, description: 'Ids of the phases that must be complete before this one' }),
    maxIterations: z
      .preprocess((v) => (v === null || v === '' ? undefined : v), z.coerce.number().int().positive().optional())
      .meta({ type: 'integer', description: "This phase's iteration budget (capped by the run's)" }),
    steps: stepsSchema,
    affectedFiles: affectedFilesSchema,
  })
  .transform(({ maxIterations, ...phase }): PlanPhase => ({
    ...phase,
    ...(maxIterations !== undefined ? { maxIterations } : {}),
    affectedFiles: phase.affectedFiles ?? filesOf(phase.steps),
  }));

export const executionPlanSchema = z.preprocess(
  parseJsonText,
  z
    .object({
      summary: z.string().min(1).describe('One or two sentences: what the change achieves'),
      steps: z
        .preprocess((v) => (v === null ? undefined : parseJsonText(v)), z.array(planStepSchema).optional())
        .meta({ description: 'The steps of a plan in one phase; leave out when you give phases' }),
      phases: z
        .preprocess((v) => (v === null ? undefined : parseJsonText(v)), z.array(planPhaseSchema).min(1).optional())
        .meta({
          description:
            'Only for work that is really several changes one after another (e.g. fix, then cover with tests, then document): ' +
            'phases, each with its own steps, run one at a time in dependency order. Leave out for a plan in one phase.',
        }),
      affectedFiles: affectedFilesSchema,
      complexity: z.preprocess(upperCased, z.enum(COMPLEXITIES)).meta({ type: 'string', enum: [...COMPLEXITIES] }),
      knownFailures: z.preprocess(
        (v) => (v === null ? undefined : parseJsonText(v)),
        z.array(z.string().min(1)).optional().meta({
          description:
            'Names of tests that already fail before any change and that the request is NOT about; they will not block success. Omit when the request is to fix them.',
        }),
      ),
    })
    .superRefine((plan, ctx) => {
      if (plan.phases) {
        // Said to the planner as a tool error: it fixes the plan and submits again.
        const problem = phaseGraphProblem(plan.phases);
        if (problem) ctx.addIssue({ code: 'custom', path: ['phases'], message: problem });
      } else if (!plan.steps?.length) {
        ctx.addIssue({ code: 'custom', path: ['steps'], message: 'a plan needs at least one step (or phases, each with its steps)' });
      }
    })
    // Phases given: the plan's steps and files are every phase's, in order (top-level steps sent too are set aside).
    // Missing affectedFiles are exactly the files the steps name.
    .transform(({ knownFailures, phases, ...plan }): ExecutionPlan => {
      const steps = phases
        ? phases.flatMap((phase) => phase.steps).map((step, index) => ({ ...step, number: index + 1 }))
        : (plan.steps ?? []);
      const affectedFiles = phases ? [...new Set(phases.flatMap((phase) => phase.affectedFiles))] : (plan.affectedFiles ?? filesOf(steps));
      return {
        ...plan,
        steps,
        ...(knownFailures?.length ? { knownFailures } : {}),
        affectedFiles,
        ...(phases ? { phases } : {}),
      };
    }),
);

function filesOf(steps: readonly PlanStep[]): string[] {
  return [...new Set(steps.map((s) => s.filePath).filter((f) => f !== ''))];
}

export const submitPlanInput = z.object({
  spec: z.string().min(1).describe('The specification: what must be true when the work is done, including how tests show it'),
  plan: executionPlanSchema,
});
export type SubmitPlanInput = z.infer<typeof submitPlanInput>;

export const SUBMIT_PLAN_TOOL_NAME = 'submit_plan';

export const submitPlanTool = terminalTool<SubmitPlanInput>(
  SUBMIT_PLAN_TOOL_NAME,
  'Submit the specification and the execution plan. This ends your turn; call it once, when the plan is complete.',
  submitPlanInput,
  'Plan received.',
);
