// The planner's terminal tool, submit_plan {spec, plan}: its arguments are the result; the agent
// loop treats a valid call as terminal. The plan schema is
// the public contract shape, lenient only where it cannot change meaning (case, numbers as text,
// a missing rationale, a plan sent as a JSON string).

import { z } from 'zod';
import type { ExecutionPlan } from '../../model';
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

export const executionPlanSchema = z.preprocess(
  parseJsonText,
  z
    .object({
      summary: z.string().min(1).describe('One or two sentences: what the change achieves'),
      steps: z.preprocess(parseJsonText, z.array(planStepSchema).min(1, 'a plan needs at least one step')),
      affectedFiles: z.preprocess(
        (v) => (v === null ? undefined : parseJsonText(v)),
        z.array(z.string()).optional().meta({ description: 'Every file the plan creates, modifies or deletes' }),
      ),
      complexity: z.preprocess(upperCased, z.enum(COMPLEXITIES)).meta({ type: 'string', enum: [...COMPLEXITIES] }),
      knownFailures: z.preprocess(
        (v) => (v === null ? undefined : parseJsonText(v)),
        z.array(z.string().min(1)).optional().meta({
          description:
            'Names of tests that already fail before any change and that the request is NOT about; they will not block success. Omit when the request is to fix them.',
        }),
      ),
    })
    // Missing affectedFiles are exactly the files the steps name.
    .transform(({ knownFailures, ...plan }): ExecutionPlan => ({
      ...plan,
      ...(knownFailures?.length ? { knownFailures } : {}),
      affectedFiles: plan.affectedFiles ?? [...new Set(plan.steps.map((s) => s.filePath).filter((f) => f !== ''))],
    })),
);

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
