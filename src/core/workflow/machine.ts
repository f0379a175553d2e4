// The statechart of a run (architecture.md). One file with named parts: actors, guards and actions
// are referenced by name so the orchestrator (and tests) swap implementations with `.provide()`,
// and so a persisted snapshot can be restored (inline actors cannot be).
//
// Every step that does work is an invoked promise actor with plain-JSON input: restoring a snapshot
// restarts the step in flight with the same input, which is why every step is idempotent.
//
// What each region does to the context lives beside it, as plain functions: gates.ts (the approval
// gates), rejection.ts (a rejected proposal), validation-loop.ts (VALIDATE → DECIDE → CODE),
// escalation.ts (help, the hand-off and the person's answer), phases.ts, review-step.ts, steering.ts.

import { assign, fromPromise, setup } from 'xstate';
import { EMPTY_USAGE, addUsage } from '../model';
import type { ExecutionPlan, FileDecision, PhaseState, Usage } from '../model';
import { ConfigurationError, OrchestratorError, errorMessage } from '../errors';
import { applyFileDecisions } from './diff-decisions';
import { proposalLeftAfterRejection, rejected, rejectedProposal } from './rejection';
import { editedPlanVersions, newPlanVersion, withGateReached } from './steering';
import { toCodingState } from './coding-state';
import type {
  ApprovalGate,
  BaselineInput,
  CodeInput,
  CodeOutput,
  DecideInput,
  DecideOutput,
  HandoffInput,
  HandoffOutput,
  HelpNode,
  PlanInput,
  PlanOutput,
  ReviewInput,
  ReviewOutput,
  RunContext,
  RunEvent,
  RunInput,
  ValidateInput,
  ValidateOutput,
} from './run-context';
import { initialContext, usageCarriedBy } from './run-context';
import { excusedFailures } from './known-failures';
import type { Baseline } from '../model';
import { mergeInstructionsRead } from './instructions-read';
import type { BudgetReached, RunBudget } from './budget';
import { stuckOrFailed } from './stuck';
import { continuedWithGuidance, escalationReason, helpRequestedAt, rejectionReasons, replannedWithGuidance } from './escalation';
import { allDiffsAccepted, diffsNeedApproval, someDiffsAccepted } from './gates';
import { decide, nextIteration, validationRecorded } from './validation-loop';
import { conflictOrFailed, overConflict } from './edit-conflict';
import { advancePhase, beginPhases, completePhase, nextPhaseAfterThis, phaseWork } from './phases';
import { reviewInputOf, reviewOutcomes, reviewWanted, withReview } from './review-step';

export { decide };

function notProvided(name: string): never {
  throw new OrchestratorError(`The ${name} step has no implementation; provide it with machine.provide()`);
}

export const runMachine = setup({
  types: {
    context: {} as RunContext,
    events: {} as RunEvent,
    input: {} as RunInput,
  },
  actors: {
    captureBaseline: fromPromise<Baseline, BaselineInput>(async () => notProvided('baseline')),
    plan: fromPromise<PlanOutput, PlanInput>(async () => notProvided('plan')),
    code: fromPromise<CodeOutput, CodeInput>(async () => notProvided('code')),
    validate: fromPromise<ValidateOutput, ValidateInput>(async () => notProvided('validate')),
    decide: fromPromise<DecideOutput, DecideInput>(async ({ input }) => decide(input)),
    writeHandoff: fromPromise<HandoffOutput, HandoffInput>(async () => notProvided('hand-off')),
    review: fromPromise<ReviewOutput, ReviewInput>(async () => notProvided('review')),
  },
  guards: {
    planNeedsApproval: ({ context }) => context.workflow.approval.plan === 'always',
    diffsNeedApproval: ({ context }, params: { editCount: number }) => diffsNeedApproval(context, params.editCount),
    verdictIs: (_, params: { verdict: string; expected: string }) => params.verdict === params.expected,
    passedToReview: ({ context }, params: { verdict: string }) => params.verdict === 'pass' && reviewWanted(context),
    proposalLeftAfterRejection: ({ context }) => proposalLeftAfterRejection(context),
    helpWasRequestedWhilePlanning: ({ context }) => context.helpRequest?.from === 'PLAN',
    somethingAccepted: ({ context }, params: { files: RunEventFiles }) => applyFileDecisions(context.codeDiffs, params.files).length > 0,
    passedWithPhaseNext: ({ context }, params: { verdict: string }) => params.verdict === 'pass' && nextPhaseAfterThis(context),
  },
  actions: {
    assignBaseline: assign((_, params: { baseline: Baseline }) => ({ baseline: params.baseline })),
    assignPlan: assign(({ context }, params: PlanOutput) => ({
      ...newPlanVersion(context, params),
      spec: params.spec,
      plan: params.plan,
      planFeedback: null,
      // A new plan is the model's until a person approves it at the gate.
      planApprovedByPerson: false,
      planApprovedUnattended: false,
      usage: addUsage(context.usage, params.usage),
      instructionsRead: mergeInstructionsRead(context.instructionsRead, params.instructionsRead),
    })),
    assignPlanFeedback: assign((_, params: { feedback: string }) => ({ planFeedback: params.feedback })),
    assignEditedPlan: assign(({ context }, params: { plan?: ExecutionPlan; unattended?: boolean }) => ({
      plan: params.plan ?? context.plan,
      planApprovedByPerson: true,
      planApprovedUnattended: params.unattended === true,
      planVersions: editedPlanVersions(context, params.plan),
    })),
    noteGateReached: assign(({ context }, params: { gate: ApprovalGate }) => ({ gatesReached: withGateReached(context, params.gate) })),
    startFirstIteration: assign(({ context }) => {
      const iterationCount = Math.max(1, context.iterationCount);
      return { iterationCount, ...beginPhases(context, iterationCount, new Date().toISOString()) };
    }),
    // Phases (phases.ts): the running one passed its validation; the next ready one starts, or the run is done.
    completePhase: assign(({ context }) => completePhase(context, new Date().toISOString())),
    advancePhase: assign(({ context }) => advancePhase(context, new Date().toISOString())),
    assignCode: assign(({ context }, params: CodeOutput) => ({
      codeDiffs: params.edits,
      editConflict: null,
      coderSummary: params.summary,
      ...(params.phases ? { phases: params.phases } : {}),
      usage: addUsage(context.usage, params.usage),
      instructionsRead: mergeInstructionsRead(context.instructionsRead, params.instructionsRead),
    })),
    // The gates (gates.ts): the whole proposal, or the files and hunks the person accepted, go to validation.
    acceptAllDiffs: assign(({ context }) => allDiffsAccepted(context)),
    acceptSomeDiffs: assign(({ context }, params: { files: RunEventFiles }) => someDiffsAccepted(context, params.files)),
    rejectDiffs: assign(({ context }, params: { feedback: string; files?: FileDecision[] }) =>
      rejectedProposal(context, params.feedback, params.files),
    ),
    // The validation loop (validation-loop.ts).
    assignValidation: assign(({ context }, params: ValidateOutput) => validationRecorded(context, params)),
    // A proposal not applied over an edit conflict used its iteration (edit-conflict.ts).
    reproposeOverConflict: assign(({ context }, params: { files: string[] }) => overConflict(context, params.files)),
    countIteration: assign(({ context }) => ({ iterationCount: context.iterationCount + 1 })),
    nextIteration: assign(({ context }) => nextIteration(context)),
    // The escalation (escalation.ts): the person's answer at WAIT_HUMAN.
    continueWithGuidance: assign(({ context }, params: { guidance: string; additionalIterations: number; budget?: RunBudget }) =>
      continuedWithGuidance(context, params),
    ),
    assignHelpRequest: assign((_, params: { reason: string; from: HelpNode; budget?: BudgetReached; phases?: PhaseState[] }) => ({
      helpRequest: { reason: params.reason, from: params.from, ...(params.budget ? { budget: params.budget } : {}) },
      ...(params.phases ? { phasesAtStop: params.phases } : {}),
    })),
    replanWithGuidance: assign(({ context }, params: { guidance: string; budget?: RunBudget }) => replannedWithGuidance(context, params)),
    assignHandoff: assign((_, params: HandoffOutput) => ({ handoffPath: params.handoffPath })),
    assignReview: assign(({ context }, params: ReviewOutput) => withReview(context, params)),
    // A failed step still spent what it spent: the error carries its usage (AgentExecutionError does).
    assignError: assign(({ context }, params: { error: unknown }) => ({
      error: errorMessage(params.error),
      usage: addUsage(context.usage, usageCarriedBy(params.error) ?? EMPTY_USAGE),
    })),
    // The baseline could not start for a reason of set-up (a feed or a package restore cannot get):
    // said apart from a failed run, so the CLI exits 2 (configuration) for it.
    assignBaselineError: assign((_, params: { error: unknown }) => ({
      error: errorMessage(params.error),
      failureKind: params.error instanceof ConfigurationError ? ('configuration' as const) : null,
    })),
    // A step stopped from outside (cancel, a request for help) cannot report its usage; whoever
    // stopped it counted the model calls it made and passes that along with the event.
    addStoppedStepUsage: assign(({ context }, params: { usage?: Usage }) => ({
      usage: addUsage(context.usage, params.usage ?? EMPTY_USAGE),
    })),
  },
}).createMachine({
  id: 'ironbeesRun',
  context: ({ input }) => initialContext(input),
  initial: 'INIT',
  on: {
    CANCEL: { target: '.CANCELLED', actions: { type: 'addStoppedStepUsage', params: ({ event }) => ({ usage: event.usage }) } },
  },
  states: {
    INIT: {
      invoke: {
        src: 'captureBaseline',
        input: ({ context }) => ({ stateId: context.stateId, workflow: context.workflow }),
        onDone: { target: 'PLAN', actions: { type: 'assignBaseline', params: ({ event }) => ({ baseline: event.output }) } },
        onError: { target: 'FAILED', actions: { type: 'assignBaselineError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    PLAN: {
      on: { REQUEST_HELP: helpRequestedAt('PLAN') },
      invoke: {
        src: 'plan',
        input: ({ context }) => ({
          stateId: context.stateId,
          workflow: context.workflow,
          request: context.userRequest,
          feedback: context.planFeedback,
          previousPlan: context.plan,
          baseline: context.baseline,
          iteration: context.iterationCount,
        }),
        onDone: [
          {
            guard: 'planNeedsApproval',
            target: 'WAIT_PLAN_APPROVAL',
            actions: { type: 'assignPlan', params: ({ event }) => event.output },
          },
          { target: 'CODE', actions: [{ type: 'assignPlan', params: ({ event }) => event.output }, 'startFirstIteration'] },
        ],
        onError: stuckOrFailed('PLAN'),
      },
    },
    WAIT_PLAN_APPROVAL: {
      entry: { type: 'noteGateReached', params: { gate: 'WAIT_PLAN_APPROVAL' } },
      on: {
        APPROVE: {
          target: 'CODE',
          actions: [
            { type: 'assignEditedPlan', params: ({ event }) => ({ plan: event.editedPlan, unattended: event.unattended }) },
            'startFirstIteration',
          ],
        },
        REJECT: { target: 'PLAN', actions: { type: 'assignPlanFeedback', params: ({ event }) => ({ feedback: event.feedback }) } },
      },
    },
    CODE: {
      on: { REQUEST_HELP: helpRequestedAt('CODE') },
      invoke: {
        src: 'code',
        input: ({ context }) => ({
          stateId: context.stateId,
          workflow: context.workflow,
          request: context.userRequest,
          spec: context.spec ?? '',
          errorContext: context.errorContext,
          iteration: context.iterationCount,
          // The plan (the running phase's part of it), its earlier attempts, and the phase's brief.
          ...phaseWork(context),
        }),
        onDone: [
          {
            guard: { type: 'diffsNeedApproval', params: ({ event }) => ({ editCount: event.output.edits.length }) },
            target: 'WAIT_DIFF_APPROVAL',
            actions: { type: 'assignCode', params: ({ event }) => event.output },
          },
          { target: 'VALIDATE', actions: [{ type: 'assignCode', params: ({ event }) => event.output }, 'acceptAllDiffs'] },
        ],
        onError: stuckOrFailed('CODE'),
      },
    },
    WAIT_DIFF_APPROVAL: {
      entry: { type: 'noteGateReached', params: { gate: 'WAIT_DIFF_APPROVAL' } },
      on: {
        APPROVE: [
          {
            guard: { type: 'somethingAccepted', params: ({ event }) => ({ files: event.files }) },
            target: 'VALIDATE',
            actions: { type: 'acceptSomeDiffs', params: ({ event }) => ({ files: event.files }) },
          },
          // Every file rejected one by one: the same as rejecting the change.
          ...rejected<Extract<RunEvent, { type: 'APPROVE' }>>(({ event }) => ({
            feedback: rejectionReasons(event.files),
            files: event.files,
          })),
        ],
        REJECT: rejected<Extract<RunEvent, { type: 'REJECT' }>>(({ event }) => ({ feedback: event.feedback })),
      },
    },
    VALIDATE: {
      on: { REQUEST_HELP: helpRequestedAt('VALIDATE') },
      invoke: {
        src: 'validate',
        input: ({ context }) => ({
          stateId: context.stateId,
          workflow: context.workflow,
          edits: context.approvedEdits,
          baseline: context.baseline,
          knownFailures: excusedFailures(context),
          iteration: context.iterationCount,
          rejections: context.rejections,
          guidance: context.guidance,
        }),
        onDone: { target: 'DECIDE', actions: { type: 'assignValidation', params: ({ event }) => event.output } },
        onError: conflictOrFailed(),
      },
    },
    DECIDE: {
      invoke: {
        src: 'decide',
        input: ({ context }) => ({
          passed: context.passed,
          iteration: context.iterationCount,
          maxIterations: context.maxIterations,
        }),
        onDone: [
          {
            guard: { type: 'passedWithPhaseNext', params: ({ event }) => ({ verdict: event.output.verdict }) },
            target: 'CODE',
            actions: 'advancePhase',
          },
          // The reviewer reads the whole change once, after the last phase passed.
          { guard: { type: 'passedToReview', params: ({ event }) => ({ verdict: event.output.verdict }) }, target: 'REVIEW' },
          {
            guard: { type: 'verdictIs', params: ({ event }) => ({ verdict: event.output.verdict, expected: 'pass' }) },
            target: 'SUCCESS',
            actions: 'completePhase',
          },
          {
            guard: { type: 'verdictIs', params: ({ event }) => ({ verdict: event.output.verdict, expected: 'retry' }) },
            target: 'CODE',
            actions: 'nextIteration',
          },
          { target: 'ESCALATE' },
        ],
        onError: { target: 'FAILED', actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    // A failing required review goes back to the coder as the next iteration (review-step.ts).
    REVIEW: {
      on: { REQUEST_HELP: helpRequestedAt('REVIEW') },
      invoke: {
        src: 'review',
        input: ({ context }) => reviewInputOf(context),
        onDone: reviewOutcomes(),
        onError: stuckOrFailed('REVIEW'),
      },
    },
    ESCALATE: {
      invoke: {
        src: 'writeHandoff',
        input: ({ context }) => ({
          state: toCodingState(context, 'ESCALATE', new Date().toISOString()),
          iterations: context.iterations,
          reason: escalationReason(context),
        }),
        onDone: { target: 'WAIT_HUMAN', actions: { type: 'assignHandoff', params: ({ event }) => event.output } },
        onError: { target: 'FAILED', actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    WAIT_HUMAN: {
      on: {
        CONTINUE: [
          {
            guard: 'helpWasRequestedWhilePlanning',
            target: 'PLAN',
            actions: { type: 'replanWithGuidance', params: ({ event }) => ({ guidance: event.guidance, budget: event.budget }) },
          },
          {
            target: 'CODE',
            actions: {
              type: 'continueWithGuidance',
              params: ({ event }) => ({ guidance: event.guidance, additionalIterations: event.additionalIterations, budget: event.budget }),
            },
          },
        ],
        STOP: { target: 'CANCELLED' },
      },
    },
    SUCCESS: { type: 'final' },
    FAILED: { type: 'final' },
    CANCELLED: { type: 'final' },
  },
});

type RunEventFiles = Extract<RunEvent, { type: 'APPROVE' }>['files'];

export type RunMachine = typeof runMachine;
