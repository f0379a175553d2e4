// A step's agent run under the supervisor (agents/supervisor): the run's silence limit
// (--agent-timeout, else the role's default) and the run's coordination records, so the APMAS
// tools show the run's own agents. The coder also tells what it staged and what remains of its plan.

import type { Host } from '../host';
import type { WorkflowContext } from '../model';
import type { AgentRuntime } from '../agents/types';
import type { AgentUnit } from '../agents/unit';
import type { CoderInput } from '../agents/coder/runner';
import { remainingSteps } from '../agents/coder/remaining-steps';
import { supervise } from '../agents/supervisor/supervise';
import { silenceLimitMs } from '../agents/supervisor/policy';
import { CoordinationStore } from './coordination-store';
import { coordinationRecords } from './supervision-records';

interface StepOf {
  stateId: string;
  workflow: WorkflowContext;
}

export function runSupervised<I, O>(host: Host, step: StepOf, unit: AgentUnit<I, O>, rt: AgentRuntime, input: I): Promise<O> {
  return supervise({
    unit,
    runtime: rt,
    input,
    silenceMs: silenceLimitMs(unit.name, step.workflow.agentTimeoutMs),
    records: coordinationRecords(new CoordinationStore(host), step.stateId, () => host.clock.now()),
  });
}

export function runSupervisedCoder<O>(
  host: Host,
  step: StepOf,
  unit: AgentUnit<CoderInput, O>,
  rt: AgentRuntime,
  input: CoderInput,
): Promise<O> {
  return supervise({
    unit,
    runtime: rt,
    input,
    silenceMs: silenceLimitMs(unit.name, step.workflow.agentTimeoutMs),
    // In a plan of phases each phase's coder has its own record (`coder@cover`), as APMAS shows agents.
    records: coordinationRecords(new CoordinationStore(host), step.stateId, () => host.clock.now(), input.phase?.id),
    stagedFiles: async () => (await input.overlay.edits()).map((edit) => edit.filePath),
    reduceScope: remainingSteps,
  });
}
