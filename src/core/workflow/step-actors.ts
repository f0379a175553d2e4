// The real implementations of the statechart's steps, bound to a Host, a model and the agents.
// Each takes only plain JSON input (what the persisted snapshot holds) and is safe to run again:
// a resumed run repeats the step that was in flight.

import { fromPromise } from 'xstate';
import type { Host } from '../host';
import { EMPTY_USAGE, addUsage } from '../model';
import type { Baseline, Usage, WorkflowContext } from '../model';
import { AgentModeError, errorMessage } from '../errors';
import type { ModelClient } from '../llm/port';
import type { AgentCatalog } from '../agents/loader';
import type { AgentRuntime } from '../agents/types';
import type { PlannerInput, PlannerOutput } from '../agents/planner/runner';
import type { CoderInput, CoderOutput } from '../agents/coder/runner';
import { builtinAgentRegistry } from '../agents/builtin';
import type { AgentRegistry } from '../agents/unit';
import { loadInstructions } from '../agents/instructions';
import { captureBaseline, validate } from '../dotnet/validator';
import { prepareWorktree } from '../dotnet/restore-ahead';
import { buildErrorContext } from '../dotnet/error-context';
import type { ToolRegistry } from '../tools/registry';
import { StagedOverlay } from '../workspace/overlay';
import { renderHandoff } from './handoff';
import { prepareRunSteps } from './tool-warmup';
import { toolApprovalGate } from './tool-approval';
import type { ToolApprover } from './tool-approval';
import type { RunStore } from './store';
import { baselineFile, fullBaseline, readBaselineFile, saveBaselineResults, saveValidationResults } from './validation-results';
import type { TraceSink } from '../trace';
import type { ActivitySink } from '../activity';
import { usageCarriedBy } from './run-context';
import { stepTurnContext, withTurnTrace } from './turn-trace';
import { runSupervised, runSupervisedCoder } from './supervised-step';
import { SUBMIT_PLAN_TOOL } from '../agents/planner/runner';
import { SUBMIT_CHANGES_TOOL } from '../agents/coder/runner';
import { SUBMIT_REVIEW_TOOL } from '../agents/reviewer/runner';
import { runReviewStep } from './review-step';
import { runPhasesInParallel } from './parallel-phases';
import type { ShowPhases } from './live-phases';
import type { OpenPhaseRuntime } from './parallel-phases';
import type {
  BaselineInput,
  CodeInput,
  CodeOutput,
  HandoffInput,
  HandoffOutput,
  PlanInput,
  PlanOutput,
  ReviewInput,
  ReviewOutput,
  ValidateInput,
  ValidateOutput,
} from './run-context';

export interface OrchestratorDeps {
  host: Host;
  model: ModelClient;
  agents: AgentCatalog;
  tools: ToolRegistry;
  /**
   * Asks a person before a tool with side effects outside the overlay runs, when the run's approval
   * setting wants it. Absent (headless, nobody to ask): such calls are refused, as data for the model.
   */
  askToolApproval?: ToolApprover;
  /** The agents' runners the steps find by name (default: the built-in planner and coder). */
  agentUnits?: AgentRegistry;
  /** Makes the runtime of a phase run in a worktree of its own (--parallel N); without it phases run one at a time. */
  phaseRuntimes?: OpenPhaseRuntime;
}

/** Which registered agent each model-driven step runs (agents/builtin.ts registers them). */
export const STEP_AGENTS = { plan: 'planner', code: 'coder', review: 'reviewer' } as const;

/**
 * Runs a model-driven step, counting what its model calls cost. When the step fails, its error
 * carries that usage (unless it already carries its own, as AgentExecutionError does), so the run
 * still counts it: an API error on the fifth call must not lose the first four.
 */
export async function withStepUsage<T>(trace: TraceSink, step: (trace: TraceSink) => Promise<T>): Promise<T> {
  let usage: Usage = EMPTY_USAGE;
  const counting: TraceSink = {
    record: (event) => {
      if (event.kind === 'model_call') usage = addUsage(usage, event.usage);
      trace.record(event);
    },
  };
  try {
    return await step(counting);
  } catch (error) {
    if (usageCarriedBy(error) || usage === EMPTY_USAGE) throw error;
    const code = error instanceof AgentModeError ? error.code : 'STEP_FAILED';
    const details = error instanceof AgentModeError ? error.details : {};
    throw new AgentModeError(errorMessage(error), code, { ...details, usage }, { cause: error });
  }
}

export function createStepActors(
  deps: OrchestratorDeps,
  store: RunStore,
  traceFor: (runId: string) => TraceSink,
  activityFor?: (runId: string) => ActivitySink,
  phasesFor?: (runId: string) => ShowPhases,
) {
  const runtime = (input: { stateId: string; workflow: WorkflowContext }, signal: AbortSignal, trace: TraceSink): AgentRuntime => ({
    host: deps.host,
    model: deps.model,
    tools: deps.tools,
    agents: deps.agents,
    modelOverride: input.workflow.model,
    ...(input.workflow.provider ? { providerOverride: input.workflow.provider } : {}),
    trace,
    ...(activityFor ? { activity: activityFor(input.stateId) } : {}),
    signal,
    toolApproval: toolApprovalGate(input.workflow, input.stateId, deps.askToolApproval),
  });

  const warn = (message: string): void => deps.host.logger.warn(message);
  const units = deps.agentUnits ?? builtinAgentRegistry();
  // A phase run's restore started at its INIT, by run id.
  const restoring = new Map<string, Promise<void>>();

  return {
    captureBaseline: fromPromise<Baseline, BaselineInput>(async ({ input, signal }) => {
      // A phase run in a worktree of its own compares with the baseline of the run that planned it.
      const given = input.workflow.givenPlan?.baselineFile;
      const inherited = given ? await readBaselineFile(deps.host, given) : null;
      if (inherited) {
        prepareRunSteps(input.stateId, deps.tools, deps.agents, units);
        // Its fresh worktree is restored, and its C# engine loaded, while its coder works (restore-ahead.ts).
        const planned = input.workflow.givenPlan?.plan;
        const files = planned ? [...planned.affectedFiles, ...planned.steps.map((step) => step.filePath)].filter(Boolean) : [];
        const restore = prepareWorktree(deps.host, input.workflow.target, input.workflow.timeouts.buildMs, files).catch(() => undefined);
        restoring.set(input.stateId, restore);
        return saveBaselineResults(deps.host, store, input.stateId, inherited);
      }
      const baseline = await captureBaseline({
        // While dotnet works, the steps after are made ready: the agents' tools, the trace id (tool-warmup.ts).
        host: deps.host,
        onFirstProcess: () => prepareRunSteps(input.stateId, deps.tools, deps.agents, units),
        target: input.workflow.target,
        timeouts: input.workflow.timeouts,
        signal,
        trace: traceFor(input.stateId),
      });
      return saveBaselineResults(deps.host, store, input.stateId, baseline);
    }),

    plan: fromPromise<PlanOutput, PlanInput>(({ input, signal }) =>
      // A phase run in a worktree of its own was planned by the run it belongs to: no planner runs.
      input.workflow.givenPlan
        ? Promise.resolve({ spec: input.workflow.givenPlan.spec, plan: input.workflow.givenPlan.plan, usage: EMPTY_USAGE })
        : withStepUsage(traceFor(input.stateId), (stepTrace) =>
            withTurnTrace(stepTrace, stepTurnContext(deps.agents, input, 'PLAN', input.iteration ?? 0, SUBMIT_PLAN_TOOL), async (trace) => {
              // The planner does not know its files yet: the root's instructions (and --context files).
              const instructions = await loadInstructions(deps.host, { workFiles: [], contextFiles: input.workflow.contextFiles, warn });
              const planner = units.require<PlannerInput, PlannerOutput>(STEP_AGENTS.plan);
              const output = await runSupervised(
                deps.host,
                input,
                planner,
                { ...runtime(input, signal, trace), instructions: instructions.text },
                {
                  request: input.request,
                  feedback: input.feedback ?? undefined,
                  previousPlan: input.previousPlan,
                  // Every failing test's name, not the first ones the state keeps: knownFailures must name them exactly.
                  baseline: await fullBaseline(deps.host, store, input.stateId, input.baseline),
                },
              );
              return { ...output, instructionsRead: instructions.files };
            }),
          ),
    ),

    code: fromPromise<CodeOutput, CodeInput>(({ input, signal }) => {
      if (input.parallel && !deps.phaseRuntimes) warn('This face cannot run phases in worktrees of their own: they run one at a time.');
      return input.parallel && deps.phaseRuntimes
        ? runPhasesInParallel({
            host: deps.host,
            open: deps.phaseRuntimes,
            stateId: input.stateId,
            workflow: input.workflow,
            request: input.request,
            spec: input.spec,
            plan: input.parallel.plan,
            limit: input.parallel.limit,
            baselineFile: baselineFile(store, input.stateId),
            signal,
            say: (line) => deps.host.logger.info(line),
            ...(phasesFor ? { show: phasesFor(input.stateId) } : {}),
          })
        : withStepUsage(traceFor(input.stateId), (stepTrace) =>
            withTurnTrace(stepTrace, stepTurnContext(deps.agents, input, 'CODE', input.iteration, SUBMIT_CHANGES_TOOL), async (trace) => {
              // The coder gets the AGENTS.md files on the path of every file the plan touches too.
              const workFiles = [...input.plan.affectedFiles, ...input.plan.steps.map((step) => step.filePath)];
              const instructions = await loadInstructions(deps.host, { workFiles, contextFiles: input.workflow.contextFiles, warn });
              const coder = units.require<CoderInput, CoderOutput>(STEP_AGENTS.code);
              const output = await runSupervisedCoder(
                deps.host,
                input,
                coder,
                { ...runtime(input, signal, trace), instructions: instructions.text },
                {
                  request: input.request,
                  spec: input.spec,
                  plan: input.plan,
                  errorContext: input.errorContext,
                  iteration: input.iteration,
                  overlay: new StagedOverlay(deps.host),
                  applied: input.applied ?? [],
                  ...(input.phase ? { phase: input.phase } : {}),
                },
              );
              return { ...output, instructionsRead: instructions.files };
            }),
          );
    }),

    validate: fromPromise<ValidateOutput, ValidateInput>(async ({ input, signal }) => {
      await restoring.get(input.stateId);
      restoring.delete(input.stateId);
      await store.journal.applyEdits(input.stateId, input.edits);
      // Every file the run has touched so far decides what to build and test, not only this
      // iteration's: a test broken in iteration 1 must be run again in iteration 2.
      const changedFiles = await store.journal.touchedFiles(input.stateId);
      const outcome = await validate({
        host: deps.host,
        target: input.workflow.target,
        timeouts: input.workflow.timeouts,
        signal,
        trace: traceFor(input.stateId),
        changedFiles,
        baseline: await fullBaseline(deps.host, store, input.stateId, input.baseline),
        // Resumed runs persisted before the field existed have no list: every test must pass.
        knownFailures: input.knownFailures ?? [],
      });
      const errorContext = outcome.passed
        ? null
        : buildErrorContext(outcome, input.iteration, {
            rejections: input.rejections ?? undefined,
            guidance: input.guidance ?? undefined,
          });
      // Every failure in full goes to the run folder once; the state keeps counts and the first ones.
      const stored = await saveValidationResults(deps.host, store, input.stateId, input.iteration, outcome, errorContext);
      return {
        build: outcome.build,
        test: stored.test,
        passed: outcome.passed,
        errorContext: stored.errorContext,
        newErrors: outcome.newBuildErrors.length,
        newFailures: outcome.newTestFailures.length,
        fixedTests: outcome.fixedFailures,
      };
    }),

    review: fromPromise<ReviewOutput, ReviewInput>(({ input, signal }) =>
      withStepUsage(traceFor(input.stateId), (stepTrace) =>
        withTurnTrace(stepTrace, stepTurnContext(deps.agents, input, 'REVIEW', input.iteration, SUBMIT_REVIEW_TOOL), async (trace) => {
          const instructions = await loadInstructions(deps.host, {
            workFiles: input.plan.affectedFiles,
            contextFiles: input.workflow.contextFiles,
            warn,
          });
          const rt = { ...runtime(input, signal, trace), instructions: instructions.text };
          return runReviewStep({ host: deps.host, store, units, warn }, input, rt);
        }),
      ),
    ),

    writeHandoff: fromPromise<HandoffOutput, HandoffInput>(async ({ input }) => ({
      handoffPath: await store.writeHandoff(input.state.stateId, renderHandoff(input.state, input.iterations, input.reason)),
    })),
  };
}
