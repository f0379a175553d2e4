// The public CodingState (README.md, `--json`, state.json) as a view of the statechart's context.

import { TERMINAL_NODES } from '../model';
import type { CodingState, WorkflowNode } from '../model';
import { ignoredKnownFailures, ignoredKnownFailuresNote } from './known-failures';
import { phaseStates } from './phase-states';
import type { RunContext } from './run-context';

/** The public CodingState (README.md, `--json`) for a context at a node. */
export function toCodingState(context: RunContext, node: WorkflowNode, timestamp: string): CodingState {
  // Phases run at once that stopped the run are shown as they ran, not as the machine keeps them.
  const phases = context.phasesAtStop ?? phaseStates(context, node);
  return {
    stateId: context.stateId,
    userRequest: context.userRequest,
    spec: context.spec,
    plan: context.plan,
    codeDiffs: context.codeDiffs,
    buildResult: context.buildResult,
    testResult: context.testResult,
    baseline: context.baseline,
    errorContext: context.errorContext,
    iterationCount: context.iterationCount,
    maxIterations: context.maxIterations,
    currentNode: node,
    timestamp,
    usage: context.usage,
    ...(context.review !== undefined ? { review: context.review } : {}),
    metadata: withoutUndefined({
      workspaceRoot: context.workflow.workspaceRoot,
      createdAt: context.createdAt,
      // The model settings the run started with, which a resume keeps (additive metadata).
      modelProvider: context.workflow.modelProvider ?? undefined,
      model: context.workflow.model ?? undefined,
      // The provider and fallback the run started with, for the panel.
      provider: context.workflow.provider ?? undefined,
      fallback: context.workflow.fallback ?? undefined,
      // Additive: present (true) only when the current plan is the one the person rejected, returned unchanged.
      planUnchangedAfterFeedback: context.planUnchangedAfterFeedback ? true : undefined,
      coderSummary: context.coderSummary || undefined,
      // Additive: the baseline's failing tests the last validation saw pass, for the panel's before → after.
      fixedTests: context.fixedTests?.length ? context.fixedTests : undefined,
      approvedFiles: context.approvedEdits.map((e) => e.filePath),
      rejections: context.rejections ?? undefined,
      guidance: context.guidance ?? undefined,
      iterations: context.iterations,
      attempts: context.attempts ?? [],
      handoffPath: context.handoffPath ?? undefined,
      error: context.error ?? undefined,
      // Additive: 'configuration' when the run stopped for its set-up (the CLI's exit 2).
      failureKind: context.failureKind ?? undefined,
      helpRequest: context.helpRequest ?? undefined,
      ignoredKnownFailures: ignoredKnownFailures(context).length
        ? ignoredKnownFailuresNote(ignoredKnownFailures(context), context.planApprovedUnattended === true)
        : undefined,
      instructionsRead: context.instructionsRead?.length ? context.instructionsRead : undefined,
      // Additive: the steering trail the panel shows (plan versions, the person's guidance at escalations).
      planVersions: context.planVersions?.length ? context.planVersions : undefined,
      guidanceGiven: context.guidanceGiven?.length ? context.guidanceGiven : undefined,
      // Additive: set while the coder proposes again over files the person changed under review.
      editConflict: context.editConflict?.length ? context.editConflict : undefined,
      // Additive: so the panel's timeline does not tick a gate the approval settings skipped.
      gatesReached: context.gatesReached,
      // Additive: the rewinds to checkpoints, with the attempts they set aside.
      rewinds: context.rewinds?.length ? context.rewinds : undefined,
    }),
    ...(phases ? { phases } : {}),
  };
}

/** JSON drops undefined keys; dropping them here too makes a yielded state equal its state.json. */
function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

/**
 * A run that fails or is cancelled says during which step (additive metadata `endedDuring`), so the
 * panel ticks only the steps it reached and marks the one it stopped in.
 */
export function endedDuring(state: CodingState, from: WorkflowNode | null): CodingState {
  if ((state.currentNode !== 'FAILED' && state.currentNode !== 'CANCELLED') || from === null || TERMINAL_NODES.includes(from)) return state;
  return { ...state, metadata: { ...state.metadata, endedDuring: from } };
}
