// A step that stopped because its model kept repeating a failing call (agents/loop-detector.ts),
// or because the coder said the plan or a test is wrong (a BLOCKED: summary, coder/plan-scope.ts),
// or because its agent fell silent once too often (agents/supervisor), or because a phase run at once
// with others did not succeed or did not merge (parallel-phases.ts),
// escalates to a person, who may give it a hint; any other step error fails the run, as before.

import { AgentModeError, errorMessage } from '../errors';
import { STUCK_CODE } from '../agents/loop-detector';
import { BLOCKED_CODE } from '../agents/coder/plan-scope';
import { AGENT_TIMEOUT_CODE } from '../agents/supervisor/supervise';
import { PHASE_BLOCKED_CODE } from './parallel-phases';
import { usageCarriedBy } from './run-context';
import { phasesCarriedBy } from './live-phases';
import type { HelpNode } from './run-context';

/** The onError transitions of PLAN and CODE. */
export function stuckOrFailed(from: HelpNode) {
  type ErrorEvent = { event: { error: unknown } };
  return [
    {
      guard: ({ event }: ErrorEvent) => isStuck(event.error),
      target: 'ESCALATE',
      actions: [
        { type: 'addStoppedStepUsage', params: ({ event }: ErrorEvent) => ({ usage: usageCarriedBy(event.error) ?? undefined }) },
        {
          type: 'assignHelpRequest',
          params: ({ event }: ErrorEvent) => ({ reason: errorMessage(event.error), from, phases: phasesCarriedBy(event.error) }),
        },
      ],
    },
    { target: 'FAILED', actions: { type: 'assignError', params: ({ event }: ErrorEvent) => ({ error: event.error }) } },
  ] as const;
}

function isStuck(error: unknown): boolean {
  return (
    error instanceof AgentModeError &&
    (error.code === STUCK_CODE || error.code === BLOCKED_CODE || error.code === AGENT_TIMEOUT_CODE || error.code === PHASE_BLOCKED_CODE)
  );
}
