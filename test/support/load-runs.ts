// Whole scripted runs through the real orchestrator, many at once, for the load bench
// (bench/load.bench.ts) and its bounded test (issue 15, item 8). Each run has its own in-memory
// workspace (the calculator fixture's files), the scripted demo model, the bundled planner and
// coder through the real tool loop and tools, the real run store, statechart and edit journal.
// Only dotnet is left out: the baseline is the fixture's known one (Divide fails) and validation
// passes exactly when the file on "disk" (the memory host, after the real applyEdits) holds the fix.
// The one thing on the real disk is each workspace's run lock, so every concurrent run needs its
// own workspace folder (a lock per workspace is the product's rule).

import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fromPromise } from 'xstate';
import type { Logger } from '../../src/core/host';
import type { Baseline, CodingState, WorkflowContext } from '../../src/core/model';
import type { AgentCatalog } from '../../src/core/agents/loader';
import { createModelClient, loadRunAgents } from '../../src/core/runtime';
import { createDefaultToolRegistry } from '../../src/core/agents/builtin';
import { RunOrchestrator } from '../../src/core/workflow/orchestrator';
import type { BaselineInput, ValidateInput, ValidateOutput } from '../../src/core/workflow/run-context';
import { createStepActors } from '../../src/core/workflow/step-actors';
import { createMemoryHost } from './memory-host';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const SOURCE = 'src/Calculator/Calculator.cs';
const FAILING_TEST = 'Calculator.Tests.CalcTests.Divide_ReturnsQuotient';
export const LOAD_REQUEST = 'Fix the failing Divide test';

const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

export interface LoadFixture {
  /** The calculator fixture, workspace-relative path → text. */
  files: Record<string, string>;
  /** The bundled agents, loaded once and shared (read-only) by every run. */
  agents: AgentCatalog;
  /** A scratch folder holding the workspace folders (for their run locks); removed by `dispose`. */
  scratch: string;
  dispose(): void;
}

function readTree(root: string, dir = ''): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(path.join(root, dir))) {
    const rel = dir ? `${dir}/${name}` : name;
    if (statSync(path.join(root, rel)).isDirectory()) Object.assign(files, readTree(root, rel));
    else files[rel] = readFileSync(path.join(root, rel), 'utf8');
  }
  return files;
}

export async function prepareLoad(): Promise<LoadFixture> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'ironbees-load-'));
  const agents = await loadRunAgents(
    { bundledAgentsDir: path.join(REPO_ROOT, 'agents'), workspaceRoot: scratch, trusted: true, logger: silent },
    createDefaultToolRegistry().names(),
  );
  return {
    files: readTree(path.join(REPO_ROOT, 'test', 'fixtures', 'calculator')),
    agents,
    scratch,
    dispose: () => rmSync(scratch, { recursive: true, force: true }),
  };
}

/** A workspace folder of its own (for its run lock). */
export function workspaceFolder(fixture: LoadFixture, name: string): string {
  const dir = path.join(fixture.scratch, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The fixture's baseline as dotnet reports it: it builds, and Divide_ReturnsQuotient fails. */
function knownBaseline(now: string): Baseline {
  return {
    build: { success: true, errors: [], warnings: [], durationMs: 0 },
    test: {
      success: false,
      total: 4,
      passed: 3,
      failed: 1,
      skipped: 0,
      failures: [{ testName: FAILING_TEST, message: 'Assert.Equal() Failure: Expected: 2 Actual: 18', stackTrace: '' }],
      durationMs: 0,
    },
    capturedAt: now,
  };
}

function workflow(workspaceRoot: string): WorkflowContext {
  return {
    workspaceRoot,
    maxIterations: 3,
    modelProvider: 'demo',
    approval: { plan: 'never', diffs: 'never' },
    timeouts: { buildMs: 60_000, testMs: 60_000 },
  };
}

/** One whole run, from the request to its end; resolves with its last state. */
export async function scriptedRun(fixture: LoadFixture, workspaceRoot: string, onState?: () => void): Promise<CodingState> {
  const host = createMemoryHost(fixture.files, workspaceRoot);
  const deps = { host, model: createModelClient({ provider: 'demo' }), agents: fixture.agents, tools: createDefaultToolRegistry() };
  const orchestrator = new RunOrchestrator(host, (store, traceFor) => ({
    ...createStepActors(deps, store, traceFor),
    captureBaseline: fromPromise<Baseline, BaselineInput>(async () => knownBaseline(new Date(host.clock.now()).toISOString())),
    // The real edit path (journal, containment), then the verdict dotnet would give on this file.
    validate: fromPromise<ValidateOutput, ValidateInput>(async ({ input }) => {
      await store.journal.applyEdits(input.stateId, input.edits);
      const fixed = /return a \/ b;/.test(host.files.get(SOURCE) ?? '');
      const test = { success: fixed, total: 4, passed: fixed ? 4 : 3, failed: fixed ? 0 : 1, skipped: 0, failures: [], durationMs: 0 };
      return {
        build: { success: true, errors: [], warnings: [], durationMs: 0 },
        test,
        passed: fixed,
        errorContext: null,
        newErrors: 0,
        newFailures: 0,
      };
    }),
  }));
  let last: CodingState | null = null;
  for await (const state of orchestrator.execute(LOAD_REQUEST, workflow(workspaceRoot))) {
    last = state;
    onState?.();
  }
  if (!last) throw new Error('the run yielded no state');
  return last;
}

/** What went wrong with a run that should have reached SUCCESS, or null. */
export function runProblem(state: CodingState): string | null {
  if (state.currentNode !== 'SUCCESS') return `${state.stateId} ended at ${state.currentNode}: ${String(state.metadata.error ?? '')}`;
  return null;
}

export interface ResourceSample {
  heapUsedMb: number;
  rssMb: number;
  /** `process.getActiveResourcesInfo().length`: timers, sockets, handles and requests alive. */
  activeResources: number;
}

/** Heap after a full collection when `global.gc` is exposed (node --expose-gc), else as it is. */
export function sampleResources(): ResourceSample {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const memory = process.memoryUsage();
  return {
    heapUsedMb: Math.round((memory.heapUsed / 1024 / 1024) * 10) / 10,
    rssMb: Math.round((memory.rss / 1024 / 1024) * 10) / 10,
    activeResources: process.getActiveResourcesInfo().length,
  };
}

/**
 * `count` runs at once, each in its own workspace; every problem is returned, none thrown.
 * `onState` is called at every transition of every run (a timer would not fire: the in-memory runs
 * hardly ever yield to the event loop's timers).
 */
export async function concurrentRuns(
  fixture: LoadFixture,
  count: number,
  onState?: () => void,
): Promise<{ problems: string[]; durationMs: number }> {
  const started = Date.now();
  const folders = Array.from({ length: count }, (_, i) => workspaceFolder(fixture, `c${i}`));
  const results = await Promise.allSettled(folders.map((folder) => scriptedRun(fixture, folder, onState)));
  const problems = results
    .map((result) => (result.status === 'fulfilled' ? runProblem(result.value) : String(result.reason)))
    .filter((p): p is string => p !== null);
  return { problems, durationMs: Date.now() - started };
}
