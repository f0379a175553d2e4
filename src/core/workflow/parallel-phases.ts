// Phases run at once (`--parallel N`, contracts.md Phases). The run's CODE step, once its plan of
// phases is approved, runs the phases itself: each ready phase (parallel-schedule.ts) is a run of
// its own in a git worktree of its own (parallel-worktrees.ts), with its plan given (no planner),
// its own baseline, CODE → VALIDATE → DECIDE loop, iteration budget and build environment; its
// applied iterations are committed on its branch. A phase that succeeds is merged into the
// integration branch, and the phases that depend on it start from there. What the integration
// branch then changes is this step's edits: the run's own diff gate (the person's review) and its
// own validation against the baseline on the person's working tree come after, as for any CODE.
// A phase whose merge conflicts gets a second attempt, its coder given the conflict with both sides
// (parallel-conflict.ts); a conflict that attempt does not resolve, or a phase that did not succeed,
// stops the phases and goes to the person (ESCALATE, the conflicting files with both sides named):
// nothing is resolved silently. A run killed while its phases worked goes on, when resumed, from the
// phases it had merged (parallel-resume.ts); the others run again.

import type { CodingState, ExecutionPlan, FileEdit, PlanPhase, Usage, WorkflowContext } from '../model';
import { EMPTY_USAGE, addUsage } from '../model';
import { mergedCompileNote } from './parallel-compile';
import { AgentModeError, errorMessage } from '../errors';
import type { CodeChecker, Host } from '../host';
import { nodesOfKind } from '../nodes';
import { GitRepo } from '../workspace/git-worktrees';
import { conflictBrief, conflictMessage, conflictTree, unresolvedFiles } from './parallel-conflict';
import type { PhaseConflict } from './parallel-conflict';
import type { PhaseRun } from './phase-states';
import { phaseSlug, phasesToStart } from './parallel-schedule';
import { ParallelWorktrees } from './parallel-worktrees';
import type { ParallelTree } from './parallel-worktrees';
import { IterationCommits } from './worktree-commits';
import { integratedEdits } from './parallel-result';
import { carryingPhases, shownPhases } from './live-phases';
import { phasesMergedBefore } from './parallel-resume';
import { phaseCodeCheck, sharedEngineEnabled } from './phase-code-check';
import type { ShowPhases } from './live-phases';

/** The error of a phase stopped because another one stopped the run. */
export const STOPPED_WITH_THE_RUN = 'Stopped with the run.';
/** The error code of a phase that stopped the others: the run escalates to its person. */
export const PHASE_BLOCKED_CODE = 'PARALLEL_PHASE_BLOCKED';
const GATES: readonly string[] = nodesOfKind('gate');

/** A runtime for one phase's run, in its worktree: made by the face, which knows how to build one. */
export interface PhaseRuntime {
  execute(request: string, context: WorkflowContext, signal: AbortSignal, runId: string): AsyncIterable<CodingState>;
  dispose(): Promise<void>;
}
/** What the run hands a phase's runtime: the compile check to use instead of an engine of its own (phase-code-check.ts). */
export interface PhaseRuntimeParts {
  codeCheck?: CodeChecker;
}
export type OpenPhaseRuntime = (workspace: string, parts?: PhaseRuntimeParts) => Promise<PhaseRuntime>;

export interface ParallelPhasesInput {
  host: Host;
  open: OpenPhaseRuntime;
  stateId: string;
  workflow: WorkflowContext;
  request: string;
  spec: string;
  /** The approved plan, in phases. */
  plan: ExecutionPlan;
  /** At most this many phases at once. */
  limit: number;
  /** The run's baseline in full: every phase compares with it (never a baseline of its own). */
  baselineFile?: string;
  signal: AbortSignal;
  /** A line for the person: a phase started, merged. */
  say?: (line: string) => void;
  /** The phases as they are now, each time one starts in its worktree or ends. */
  show?: ShowPhases;
}

export interface ParallelPhasesOutput {
  summary: string;
  edits: FileEdit[];
  usage: Usage;
  phases: PhaseRun[];
}

interface Finished {
  id: string;
  last: CodingState | null;
  /** The worktree it ran in, until its merge is done. */
  tree?: ParallelTree;
  error?: unknown;
  /** Set on a second attempt: the conflict its coder was given. */
  conflict?: PhaseConflict;
}

export async function runPhasesInParallel(input: ParallelPhasesInput): Promise<ParallelPhasesOutput> {
  const phases = input.plan.phases ?? [];
  const repo = await GitRepo.open(input.host.process, input.workflow.workspaceRoot);
  const trees = await ParallelWorktrees.create(repo, input.workflow.workspaceRoot, input.stateId);
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  input.signal.addEventListener('abort', onAbort);
  const runs = new Map<string, PhaseRun>(phases.map((phase) => [phase.id, pendingRun(phase, input.workflow)]));
  const slugs = uniqueSlugs(phases);
  const running = new Map<string, Promise<Finished>>();
  let usage = EMPTY_USAGE;
  let failure: AgentModeError | null = null;
  const show = (): void => {
    const shown = shownPhases(runs.values());
    // Kept with the integration worktree first: a resume after a kill goes on from the phases merged (parallel-resume.ts).
    trees.savePhases(shown);
    void input.show?.(shown);
  };
  /** The phase as it works in `tree`, shown. */
  const inTree = (id: string, tree: ParallelTree): ParallelTree => {
    runs.set(id, { ...(runs.get(id) as PhaseRun), worktree: tree.workspace });
    show();
    return tree;
  };
  /** False once the phases' result is in hand: only then does a worktree that would not go fail the run. */
  let stopped = true;
  try {
    for (const run of await phasesMergedBefore(trees, phases, (line) => input.say?.(line))) runs.set(run.phaseId, run);
    if (trees.earlier) show();
    for (;;) {
      if (!failure && !stop.signal.aborted) {
        const statuses = new Map([...runs].map(([id, run]) => [id, run.status]));
        for (const id of phasesToStart(phases, statuses, input.limit)) {
          const phase = phases.find((p) => p.id === id) as PlanPhase;
          runs.set(id, { ...(runs.get(id) as PhaseRun), status: 'running', startedAt: new Date().toISOString() });
          const completed = completedHandoffs(phases, runs);
          const slug = slugs.get(id) as string;
          running.set(
            id,
            runPhase(
              input,
              trees,
              phase,
              () => trees.addPhase(slug).then((tree) => inTree(id, tree)),
              () => completed,
              stop.signal,
            ),
          );
        }
      }
      if (running.size === 0) break;
      const done = await Promise.race(running.values());
      running.delete(done.id);
      usage = addUsage(usage, done.last?.usage ?? EMPTY_USAGE);
      const phase = phases.find((p) => p.id === done.id) as PlanPhase;
      const { worktree: _worktree, ...run } = runs.get(done.id) as PhaseRun;
      const ended = { ...run, endedAt: new Date().toISOString(), iterationsRun: run.iterationsRun + (done.last?.iterationCount ?? 0) };
      const outcome: AgentModeError | PhaseConflict | null =
        failure || stop.signal.aborted ? null : await outcomeOf(trees, phase, done, slugs);
      if (outcome && !(outcome instanceof AgentModeError)) {
        // The later phase's coder gets the conflict, in a worktree from what is merged so far.
        runs.set(done.id, { ...run, iterationsRun: ended.iterationsRun });
        input.say?.(
          `phase ${phase.name} (${phase.id}): its merge conflicts in ${outcome.conflicts.map((c) => c.path).join(', ')}; its coder gets both sides`,
        );
        const slug = slugs.get(done.id) as string;
        const tree = (): Promise<ParallelTree> =>
          conflictTree(trees, slug, phase, outcome.tree)
            .finally(() => trees.close(outcome.tree))
            .then((made) => inTree(done.id, made));
        const brief = (made: ParallelTree): string =>
          [completedHandoffs(phases, runs), conflictBrief(phase, outcome, made)].filter(Boolean).join('\n\n');
        running.set(done.id, runPhase(input, trees, phase, tree, brief, stop.signal, outcome));
        show();
        continue;
      }
      const problem: AgentModeError | null = outcome;
      if (problem || failure || stop.signal.aborted || done.last?.currentNode !== 'SUCCESS') {
        runs.set(done.id, { ...ended, status: 'error', error: problem?.message ?? STOPPED_WITH_THE_RUN });
        if (problem && !failure) {
          failure = problem;
          stop.abort();
        }
        show();
        continue;
      }
      runs.set(done.id, { ...ended, status: 'complete', handoff: handoffOf(done.last) });
      show();
      input.say?.(`phase ${phase.name} (${phase.id}): complete after ${ended.iterationsRun} iteration(s), merged`);
    }
    // The escalation shows the phases as they ran: the one that stopped the others in error, with why.
    if (failure) throw carryingPhases(failure, shownPhases(runs.values()));
    if (input.signal.aborted) throw new AgentModeError('The run was stopped while its phases ran.', 'CANCELLED');
    const integrated = await integratedEdits(trees, input.workflow.workspaceRoot);
    if ('localConflicts' in integrated) {
      throw carryingPhases(
        blocked(
          `The phases' merged change conflicts with uncommitted changes in your working tree (the phases started from the last commit) in ${integrated.localConflicts.join(', ')}; nothing was written. Commit or stash those changes, then continue.`,
        ),
        shownPhases(runs.values()),
      );
    }
    const edits = integrated.edits;
    const names = phases.map((p) => `${p.name} (${p.id})`).join(', ');
    const compileNote = await mergedCompileNote(input.host, edits, input.signal);
    const summary = `Phases ${names}, run at once in worktrees and merged.${compileNote ? `\n\n${compileNote}` : ''}`;
    stopped = false;
    return { summary, edits, usage, phases: [...runs.values()] };
  } finally {
    input.signal.removeEventListener('abort', onAbort);
    stop.abort();
    await Promise.allSettled(running.values());
    // What stopped the phases is what the person reads; a worktree that would not go is a warning then.
    await trees.closeAll().catch((error: unknown) => {
      if (!stopped) throw error;
      input.host.logger.warn(`Could not remove every phase worktree: ${errorMessage(error)}`);
    });
  }
}

/** One attempt of a phase: its worktree, its run to the end (or its first question), its commits; the worktree is ended by the caller. */
async function runPhase(
  input: ParallelPhasesInput,
  trees: ParallelWorktrees,
  phase: PlanPhase,
  makeTree: () => Promise<ParallelTree>,
  brief: (tree: ParallelTree) => string,
  signal: AbortSignal,
  conflict?: PhaseConflict,
): Promise<Finished> {
  const attempt = conflict ? { conflict } : {};
  let tree: ParallelTree | null = null;
  try {
    tree = await makeTree();
    input.say?.(`phase ${phase.name} (${phase.id}): started in ${tree.record.path} on ${tree.record.branch}`);
    const commits = new IterationCommits(trees.repo, tree.workspace);
    const context = phaseContext(input, tree.workspace, phase, brief(tree));
    const runtime = await input.open(tree.workspace, runtimeParts(input, trees, tree));
    let last: CodingState | null = null;
    try {
      for await (const state of commits.states(runtime.execute(input.request, context, signal, tree.record.runId))) {
        last = state;
        // Nobody answers a phase's own questions: its escalation stops it, and the run asks its person.
        if (GATES.includes(state.currentNode)) break;
      }
      await commits.commitRest();
    } finally {
      // Its build servers stop while it is merged; its worktree is removed only after (ParallelWorktrees.close).
      trees.endsAfter(tree, runtime.dispose());
    }
    return { id: phase.id, last, tree, ...attempt };
  } catch (error) {
    if (tree) await trees.close(tree).catch(() => undefined);
    return { id: phase.id, last: null, error, ...attempt };
  }
}

/**
 * A phase that did not succeed, or whose second attempt still conflicts, as the error that stops the
 * others; the conflict of a first attempt (its worktree kept for the second); null once it is merged.
 */
async function outcomeOf(
  trees: ParallelWorktrees,
  phase: PlanPhase,
  done: Finished,
  slugs: Map<string, string>,
): Promise<AgentModeError | PhaseConflict | null> {
  const tree = done.tree;
  const second = done.conflict;
  let kept = false;
  try {
    if (done.error !== undefined) {
      const reason = done.error instanceof Error ? done.error.message : String(done.error);
      if (second) return unresolved(phase, second, `its second attempt could not run: ${reason}`);
      return blocked(`Phase "${phase.id}" (${phase.name}) could not run: ${reason}`);
    }
    const node = done.last?.currentNode ?? 'no state';
    if (node !== 'SUCCESS') {
      const runId = tree?.record.runId ?? `…-phase-${slugs.get(phase.id) ?? phase.id}`;
      const where = `Its run is kept as ${runId} (ironbees trace ${runId}).`;
      if (second) return unresolved(phase, second, `its second attempt ended ${node}. ${where}`);
      return blocked(`Phase "${phase.id}" (${phase.name}) ended ${node} in its worktree; the other phases were stopped. ${where}`);
    }
    if (!tree) return blocked(`Phase "${phase.id}" (${phase.name}) lost its worktree.`);
    const left = second ? unresolvedFiles(second.conflicts, tree) : [];
    if (second && left.length > 0) return unresolved(phase, second, `its second attempt left conflict markers in ${left.join(', ')}.`);
    const merged = await trees.merge(tree, `Merge phase ${phase.id}: ${phase.name}`);
    if (merged.merged) return null;
    if (second) return unresolved(phase, { ...second, conflicts: merged.conflicts }, 'its second attempt conflicts again.');
    kept = true;
    return { conflicts: merged.conflicts, tree, summary: handoffOf(done.last) };
  } finally {
    // Removed while the next phase is merged; closeAll waits for it at the end, and reports its failure.
    if (tree && !kept) void trees.close(tree).catch(() => undefined);
  }
}

/** A conflict the phase's coder was given and did not resolve: the person's, with both sides. */
function unresolved(phase: PlanPhase, conflict: PhaseConflict, why: string): AgentModeError {
  return blocked(`${conflictMessage(phase, conflict.conflicts)}\n\nThe phase's coder was given the conflict with both sides; ${why}`);
}

function blocked(message: string): AgentModeError {
  return new AgentModeError(message, PHASE_BLOCKED_CODE);
}

/** The run's own C# engine answers the phase's compile checks, unless turned off or there is none. */
function runtimeParts(input: ParallelPhasesInput, trees: ParallelWorktrees, tree: ParallelTree): PhaseRuntimeParts {
  const engine = input.host.codeCheck;
  if (!engine || !sharedEngineEnabled()) return {};
  return {
    codeCheck: phaseCodeCheck(engine, { repo: trees.repo, main: input.workflow.workspaceRoot, phase: tree.workspace, base: trees.base }),
  };
}

/** How a phase's own run is set up: its plan given, its own budget, no gates (nothing it writes reaches the person's files), no review (the run reviews the whole). */
function phaseContext(input: ParallelPhasesInput, workspace: string, phase: PlanPhase, completed: string): WorkflowContext {
  const { parallel: _parallel, givenPlan: _given, ...parent } = input.workflow;
  const plan: ExecutionPlan = {
    summary: input.plan.summary,
    steps: phase.steps,
    affectedFiles: phase.affectedFiles,
    complexity: input.plan.complexity,
    phases: [{ ...phase, dependencies: [] }],
  };
  return {
    ...parent,
    workspaceRoot: workspace,
    approval: { plan: 'never', diffs: 'never' },
    review: { mode: 'off', threshold: parent.review?.threshold ?? 8 },
    givenPlan: {
      spec: completed ? `${input.spec}\n\n${completed}` : input.spec,
      plan,
      ...(input.baselineFile ? { baselineFile: input.baselineFile } : {}),
    },
  };
}

/** What the completed phases did, for a phase that starts after them (their changes are in its worktree). */
function completedHandoffs(phases: readonly PlanPhase[], runs: ReadonlyMap<string, PhaseRun>): string {
  const done = phases.filter((phase) => runs.get(phase.id)?.status === 'complete');
  if (done.length === 0) return '';
  const lines = done.map((phase) => `## ${phase.name} (${phase.id})\n\n${runs.get(phase.id)?.handoff ?? ''}`);
  return `Phases already complete (their changes are in this workspace):\n\n${lines.join('\n\n')}`;
}

function pendingRun(phase: PlanPhase, workflow: WorkflowContext): PhaseRun {
  return {
    phaseId: phase.id,
    name: phase.name,
    status: 'pending',
    iterationsRun: 0,
    maxIterations: Math.min(workflow.maxIterations, phase.maxIterations ?? workflow.maxIterations),
    startedAt: null,
    endedAt: null,
    firstIteration: null,
  };
}

function handoffOf(last: CodingState | null): string {
  const own = last?.phases?.[0]?.handoff;
  if (own) return own;
  const summary = typeof last?.metadata.coderSummary === 'string' ? last.metadata.coderSummary.trim() : '';
  return summary || '(the coder gave no summary)';
}

function uniqueSlugs(phases: readonly PlanPhase[]): Map<string, string> {
  const used = new Set<string>();
  const slugs = new Map<string, string>();
  phases.forEach((phase, index) => {
    let slug = phaseSlug(phase.id);
    if (used.has(slug)) slug = `${slug}-${index + 1}`;
    used.add(slug);
    slugs.set(phase.id, slug);
  });
  return slugs;
}
