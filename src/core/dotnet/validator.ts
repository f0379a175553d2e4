// The validator is not a model: it is diagnostics, then a build, then tests, each parsed into data and
// compared with the baseline. It runs every iteration, so it builds only what the change affects and
// runs only the test projects that can see it.

import * as path from 'node:path';
import type { Host } from '../host';
import type { Baseline, BuildResult, CompilationError, TestFailure, TestResult } from '../model';
import type { TraceSink } from '../trace';
import { ConfigurationError, errorMessage } from '../errors';
import { compareTests, markPreExistingErrors, newErrorsSince } from './baseline-diff';
import { runBuild } from './build';
import type { BuildRequest } from './build';
import { BuildOutputCollector } from './built-assemblies';
import { scopeOfChanges } from './project-graph';
import type { ChangeScope, ProjectGraph, ProjectNode } from './project-graph';
import { NEEDS_RESTORE_CODES, dotnetSession } from './session';
import type { DotnetSession } from './session';
import { buildWithoutReferenceWalk, hasFreshOutputs, upstreamOf } from './reference-walk';
import { restoreFailureMessage } from './restore-stop';
import { relativeFramePaths } from './stack-frames';
import { runTests } from './test';
import type { TestRun } from './test';
import { afterFirstProcessStarts, withProcessLabel } from './process-hooks';
import { vstestConsoleFor } from './vstest-console';
import { earlyStart } from './early-start';
import { earlyTestsMayBeStale } from './stale-early-tests';

export interface ValidatorOptions {
  host: Host;
  /** Workspace-relative solution or project; found automatically when absent. */
  target?: string;
  timeouts: { buildMs: number; testMs: number };
  signal?: AbortSignal;
  trace?: TraceSink;
}

export interface BaselineOptions extends ValidatorOptions {
  /** Called once, soon after the baseline's first dotnet process has started: work to do while it runs. */
  onFirstProcess?: () => void;
}

export interface ValidationOutcome {
  build: BuildResult;
  /** Null when the build failed (tests were not run). */
  test: TestResult | null;
  /**
   * Build succeeded and no test failed, except baseline failures the plan leaves alone
   * (`knownFailures`). Other pre-existing failures count: the request may be to fix them.
   */
  passed: boolean;
  newBuildErrors: CompilationError[];
  newTestFailures: TestFailure[];
  /** Tests that fail now and already failed in the baseline: reported, never blamed on the agent. */
  preExistingFailures: string[];
  /** Tests that failed in the baseline and pass now. */
  fixedFailures: string[];
  /** Baseline failures that still fail and that the plan leaves alone: reported, not blocking. */
  toleratedFailures: string[];
}

export type ValidateOptions = ValidatorOptions & {
  changedFiles: string[];
  baseline: Baseline | null;
  /** Baseline failures the approved plan leaves alone. A name that did not fail in the baseline excuses nothing. */
  knownFailures?: readonly string[];
};

/** True when every failure is a baseline failure the plan leaves alone, and none went unnamed. */
function onlyToleratedFailures(test: TestResult, tolerated: readonly string[]): boolean {
  if (test.timedOut || test.failures.length !== test.failed) return false;
  const allowed = new Set(tolerated);
  return test.failures.every((failure) => failure.preExisting === true && allowed.has(failure.testName));
}

function record(options: ValidatorOptions, phase: 'baseline' | 'build' | 'test', ok: boolean, durationMs: number, detail: string): void {
  options.trace?.record({ kind: 'validation', at: new Date(options.host.clock.now()).toISOString(), phase, ok, durationMs, detail });
}

function describeTests(test: TestResult | null): string {
  if (!test) return 'tests not run';
  const notTested = test.skippedFrameworks?.length ? `; not tested: ${test.skippedFrameworks.join('; ')}` : '';
  return `${test.total} tests: ${test.passed} passed, ${test.failed} failed, ${test.skipped} skipped${test.timedOut ? ' (timed out)' : ''}${notTested}`;
}

function describeBuild(build: BuildResult): string {
  if (build.timedOut) return 'build timed out';
  return build.success ? `build ok, ${build.warnings.length} warnings` : `build failed, ${build.errors.length} errors`;
}

/** Builds what the scope says, restoring when needed (and once more if the build says restore is stale). */
async function buildScope(
  options: ValidatorOptions,
  session: DotnetSession,
  graph: ProjectGraph,
  scope: ChangeScope,
  onSucceeded?: () => void,
): Promise<BuildResult> {
  const restore = scope.needsRestore || !(await session.isRestored(graph));
  // Restoring goes through the whole target: a generated traversal project has no Restore target.
  const projects = scope.full || restore ? [graph.target.absPath] : scope.buildRoots.map((project) => project.absPath);
  const request = { host: options.host, timeoutMs: options.timeouts.buildMs, signal: options.signal, onSucceeded };
  const alone = scope.full || restore ? null : await withoutReferenceWalk(options, graph, scope);
  let build = alone
    ? await buildNoting(session, { ...request, projects: alone.map((project) => project.absPath), restore, withoutReferenceWalk: true })
    : await buildNoting(session, { ...request, projects, restore });
  if (!build.success && !restore && build.errors.some((error) => NEEDS_RESTORE_CODES.has(error.code))) {
    build = await buildNoting(session, { ...request, projects: [graph.target.absPath], restore: true });
  }
  if (restore || build.success) session.markRestored(!build.errors.some((error) => error.code.startsWith('NU')));
  return build;
}

/** A build whose output also says where each project's assembly is (remembered for the test runs). */
async function buildNoting(session: DotnetSession, request: BuildRequest): Promise<BuildResult> {
  const collector = new BuildOutputCollector();
  const onSucceeded = request.onSucceeded;
  const build = await runBuild({
    ...request,
    onOutput: collector.note,
    // The assemblies the build printed are known by then: the tests it lets start run from them.
    ...(onSucceeded ? { onSucceeded: () => (session.assemblies.remember(collector.found()), onSucceeded()) } : {}),
  });
  if (build.success) session.assemblies.remember(collector.found());
  return build;
}

/** The affected projects in build order when their upstream is proven built and unchanged; null to walk references. */
async function withoutReferenceWalk(options: ValidatorOptions, graph: ProjectGraph, scope: ChangeScope): Promise<ProjectNode[] | null> {
  if (process.env.IRONBEES_SKIP_REFERENCE_WALK === '0' || !scope.affected) return null;
  const upstream = upstreamOf(graph, scope.affected);
  // One stale or unbuilt upstream project is enough to walk the references as before.
  for (const project of upstream) if (!(await hasFreshOutputs(project, options.host.workspaceRoot))) return null;
  const ordered = buildWithoutReferenceWalk(graph, scope.affected, () => true);
  if (ordered)
    options.host.logger.debug(
      `Building ${ordered.map((project) => project.name).join(', ')} without walking ${upstream.length} built, unchanged upstream project(s).`,
    );
  return ordered;
}

async function testProjects(
  options: ValidatorOptions,
  graph: ProjectGraph,
  projects: readonly ProjectNode[],
  only?: Map<string, string[]>,
  sessionHost: Host = options.host,
): Promise<TestRun> {
  const modeFrom = path.dirname(graph.target.absPath);
  const session = dotnetSession(sessionHost, options.target);
  const assemblies = session.assemblies.forProjects(graph.projects);
  const vstestConsole = await vstestConsoleFor(modeFrom);
  const run = await runTests({
    host: options.host,
    projects,
    timeoutMs: options.timeouts.testMs,
    signal: options.signal,
    modeFrom,
    only,
    assemblies,
    expectedMs: session.testDurations(),
    vstestConsole,
  });
  session.rememberFailures(run.failedByProject);
  session.rememberDurations(run.durationByProject);
  return { ...run, result: withRelativeStacks(run.result, options.host.workspaceRoot) };
}

/** Stack frames name workspace files relative to the workspace, as every other path Ironbees shows. */
function withRelativeStacks(result: TestResult, workspaceRoot: string): TestResult {
  if (result.failures.every((failure) => failure.stackTrace === '')) return result;
  return {
    ...result,
    failures: result.failures.map((failure) => ({ ...failure, stackTrace: relativeFramePaths(failure.stackTrace, workspaceRoot) })),
  };
}

/**
 * Failing-first: the affected projects' tests that failed last time run alone. A run in which one still
 * fails (or that hangs) is the verdict; otherwise null, and the whole affected set runs.
 */
async function failingFirst(
  options: ValidateOptions,
  session: DotnetSession,
  graph: ProjectGraph,
  projects: readonly ProjectNode[],
): Promise<TestRun | null> {
  // A baseline failure the plan leaves alone would always "still fail": it must not cut the run short.
  const tolerated = new Set(options.knownFailures ?? []);
  const previous = new Map<string, string[]>();
  for (const [project, names] of session.previousFailures(projects)) {
    const kept = names.filter((name) => !tolerated.has(name));
    if (kept.length > 0) previous.set(project, kept);
  }
  if (previous.size === 0 || process.env.IRONBEES_FAILING_FIRST === '0') return null;
  const run = await testProjects(options, graph, projects, previous);
  if (run.ran.length === 0) return null;
  const stillFailing = [...run.outcomes.values()].some((outcome) => outcome === 'failed') || run.result.timedOut === true;
  return stillFailing ? run : null;
}

/** Failing-first when it gives the verdict, else the whole affected set. */
async function testPhase(
  options: ValidateOptions,
  session: DotnetSession,
  graph: ProjectGraph,
  projects: readonly ProjectNode[],
): Promise<{ run: TestRun; firstVerdict: TestRun | null }> {
  const firstVerdict = await failingFirst(options, session, graph, projects);
  return { run: firstVerdict ?? (await testProjects(options, graph, projects)), firstVerdict };
}

/** A full build and every test project, before any edit. */
export async function captureBaseline(options: BaselineOptions): Promise<Baseline> {
  const startedAt = Date.now();
  const session = dotnetSession(options.host, options.target);
  const graph = await session.graph();
  const fullScope: ChangeScope = {
    full: true,
    needsRestore: true,
    buildRoots: [],
    testProjects: graph.projects.filter((project) => project.isTest),
  };
  // Its terminals say "baseline": red output here is the starting point, not the agent's doing.
  const processHost = withProcessLabel(options.host, 'baseline');
  const labelled = {
    ...options,
    host: options.onFirstProcess ? afterFirstProcessStarts(processHost, options.onFirstProcess) : processHost,
  };
  const build = await buildScope(labelled, session, graph, fullScope);
  const run = build.success ? await testProjects(labelled, graph, fullScope.testProjects, undefined, options.host) : null;
  const test = run?.result ?? null;
  const detail = `${graph.target.relPath}: ${describeBuild(build)}; ${describeTests(test)}`;
  record(options, 'baseline', build.success && (test?.success ?? false), Date.now() - startedAt, detail);
  const restoreFailure = restoreFailureMessage(build);
  if (restoreFailure) throw new ConfigurationError(restoreFailure, { codes: [...new Set(build.errors.map((error) => error.code))] });
  return {
    build,
    test,
    capturedAt: new Date(options.host.clock.now()).toISOString(),
    ...(run ? { ranTests: ranTestsByProject(run, options.host.workspaceRoot) } : {}),
  };
}

/**
 * What a change of `files` (the plan's; all of the target when none or when they reach the build
 * itself) would build, built before any edit where the build output is not yet the workspace's own (a
 * phase's fresh worktree, just restored: restore-ahead.ts): its build servers are running and those
 * outputs are its own by the time the first validation builds only the changed projects. Nobody's
 * verdict: false only means that validation builds more.
 */
export async function buildAhead(options: ValidatorOptions, files: readonly string[]): Promise<boolean> {
  const session = dotnetSession(options.host, options.target);
  const graph = await session.graph();
  // Called once the target's restore succeeded: what builds next needs no restore of its own.
  session.markRestored(true);
  const planned = scopeOfChanges(graph, files, options.host.workspaceRoot);
  const scope: ChangeScope = planned.full
    ? { full: true, needsRestore: false, buildRoots: [], testProjects: [] }
    : { full: false, needsRestore: false, buildRoots: planned.buildRoots, testProjects: [] };
  const build = await buildScope({ ...options, host: withProcessLabel(options.host, 'warm-up build') }, session, graph, scope);
  return build.success;
}

/** The tests that ran, by workspace-relative project path (forward slashes). */
function ranTestsByProject(run: TestRun, workspaceRoot: string): Record<string, string[]> {
  const ran: Record<string, string[]> = {};
  for (const [project, names] of run.ranByProject) ran[path.relative(workspaceRoot, project).split(path.sep).join('/')] = names;
  return ran;
}

/** Errors the language server already sees in the changed files: no build needed to know it fails. */
async function diagnosticsVerdict(options: ValidateOptions): Promise<ValidationOutcome | null> {
  const diagnostics = options.host.diagnostics;
  if (!diagnostics || options.changedFiles.length === 0) return null;
  const startedAt = Date.now();
  let errors: CompilationError[];
  try {
    errors = await diagnostics.errorsFor(options.changedFiles, options.signal);
  } catch (error) {
    options.host.logger.warn(`Diagnostics unavailable, building instead: ${errorMessage(error)}`);
    return null;
  }
  const newErrors = newErrorsSince(errors, options.baseline);
  if (newErrors.length === 0) return null;
  errors = markPreExistingErrors(errors, options.baseline);
  const durationMs = Date.now() - startedAt;
  record(options, 'build', false, durationMs, `language server: ${newErrors.length} new errors in the changed files; build skipped`);
  return {
    build: { success: false, errors, warnings: [], durationMs },
    test: null,
    passed: false,
    newBuildErrors: newErrors,
    newTestFailures: [],
    preExistingFailures: [],
    fixedFailures: [],
    toleratedFailures: [],
  };
}

/**
 * Validates the workspace after the agent's edits: diagnostics (when the host has a language server),
 * then the build, then the tests (skipped when the build fails), compared with the baseline.
 */
export async function validate(options: ValidateOptions): Promise<ValidationOutcome> {
  const early = await diagnosticsVerdict(options);
  if (early) return early;
  const session = dotnetSession(options.host, options.target);
  const graph = await session.graph(options.changedFiles);
  let scope = scopeOfChanges(graph, options.changedFiles, options.host.workspaceRoot);
  if (!scope.full && options.baseline && !options.baseline.build.success) {
    // Errors elsewhere in a build that already failed would not show in a partial build.
    scope = { ...scope, full: true, reason: 'the baseline build failed', testProjects: graph.projects.filter((project) => project.isTest) };
  }
  if (!scope.full && (options.baseline?.test?.failed ?? 0) > 0) {
    // Which project a baseline failure lives in is not recorded, so run every test project to see it
    // still fail or pass; the unaffected ones are already built and run with --no-build.
    scope = { ...scope, testProjects: graph.projects.filter((project) => project.isTest) };
  }
  // The tests start as soon as the build's output says it succeeded, while the build command still exits.
  const testsFromNow = () => earlyStart((signal) => testPhase({ ...options, signal }, session, graph, scope.testProjects), options.signal);
  let tests = testsFromNow();
  let startedEarlyAt: number | null = null;
  let built: BuildResult | undefined;
  try {
    built = await buildScope(options, session, graph, scope, () => {
      startedEarlyAt ??= Date.now();
      tests.start();
    });
  } finally {
    // A build that failed after all (or threw) calls off the tests it let start.
    if (!built?.success) await tests.cancel();
  }
  const earlyAt: number | null = startedEarlyAt;
  if (
    built.success &&
    earlyAt !== null &&
    (await earlyTestsMayBeStale(session.assemblies.forProjects(scope.testProjects), scope.testProjects.length, earlyAt))
  ) {
    options.host.logger.debug("The build wrote the tests' output after its success line: running the tests again.");
    await tests.cancel();
    tests = testsFromNow();
  }
  const build = { ...built, errors: markPreExistingErrors(built.errors, options.baseline) };
  const scopeNote = scope.full
    ? `whole ${graph.target.relPath}${scope.reason ? ` (${scope.reason})` : ''}`
    : scope.buildRoots.map((project) => project.relPath).join(', ');
  record(options, 'build', build.success, build.durationMs, `${scopeNote}: ${describeBuild(build)}`);
  const newBuildErrors = newErrorsSince(built.errors, options.baseline);
  if (!build.success) {
    return {
      build,
      test: null,
      passed: false,
      newBuildErrors,
      newTestFailures: [],
      preExistingFailures: [],
      fixedFailures: [],
      toleratedFailures: [],
    };
  }
  const { run, firstVerdict } = await tests.result();
  // A failing-first verdict ran only some tests on purpose; a full run is held to every test the baseline ran.
  const heldTo = firstVerdict ? [] : run.ran.map((project) => path.relative(options.host.workspaceRoot, project).split(path.sep).join('/'));
  const comparison = compareTests(run.result, run.outcomes, options.baseline, heldTo);
  const notRun = firstVerdict
    ? `; failing-first: the tests that failed last time still fail, the other tests of ${scope.testProjects.map((project) => project.name).join(', ')} were not run`
    : '';
  record(
    options,
    'test',
    run.result.success,
    run.result.durationMs,
    `${scope.testProjects.map((project) => project.name).join(', ') || 'no test projects'}: ${describeTests(run.result)}${notRun}`,
  );
  const known = new Set(options.knownFailures ?? []);
  const toleratedFailures = comparison.preExistingFailures.filter((name) => known.has(name));
  return {
    build,
    // Said in the result, not only in the event log: the panel must not read "Total 1" as all the tests.
    test: firstVerdict ? { ...comparison.test, onlyLastFailures: true } : comparison.test,
    passed: comparison.test.failed === 0 || onlyToleratedFailures(comparison.test, toleratedFailures),
    newBuildErrors,
    newTestFailures: comparison.newTestFailures,
    preExistingFailures: comparison.preExistingFailures,
    fixedFailures: comparison.fixedFailures,
    toleratedFailures,
  };
}
