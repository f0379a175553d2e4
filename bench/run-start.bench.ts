// Run start against run history (issue 15): the orchestrator's start, from execute() to its first
// state, on a workspace with no past runs and on one with 1,000 (each a finished run as this version
// leaves it: state.json, events.jsonl, the edit journal with an original, a done apply record and a
// validation results file). Real disk, fake steps (no model, no dotnet). Start-up must not grow with
// history: the goal is a ratio of about 1.0×. Before the index of open apply records, every start
// walked every run's files: 2.8 ms vs 380 ms (136×) on 2 cores.
// Run: node --import tsx bench/run-start.bench.ts   (IRONBEES_BENCH_RUNS=N samples of each, default 15,
// interleaved; IRONBEES_BENCH_HISTORY=N past runs, default 1000)

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeHost } from '../src/host/node';
import { RunStore } from '../src/core/workflow/store';
import { FakeSteps } from '../test/unit/workflow/fake-steps';
import { orchestratorOver } from '../test/unit/workflow/orchestrator-harness';
import { CALC_AFTER, CALC_BEFORE, baseline, workflow } from '../test/unit/workflow/samples';

const RUNS = Number(process.env.IRONBEES_BENCH_RUNS ?? 15);
const HISTORY = Number(process.env.IRONBEES_BENCH_HISTORY ?? 1000);

/** One finished run's folder, the files a real run leaves (sizes of the same order). */
function pastRun(workspace: string, index: number): void {
  const runId = `20261101-${String(index).padStart(6, '0')}-abcdef`;
  const dir = path.join(workspace, '.ironbees', 'runs', runId);
  mkdirSync(path.join(dir, 'edits'), { recursive: true });
  mkdirSync(path.join(dir, 'validations'), { recursive: true });
  const at = '2026-11-01T00:00:00.000Z';
  writeFileSync(
    path.join(dir, 'state.json'),
    JSON.stringify({
      schemaVersion: 1,
      runId,
      createdAt: at,
      updatedAt: at,
      codingState: { currentNode: 'SUCCESS', padding: 'x'.repeat(4000) },
      machine: {},
    }),
  );
  writeFileSync(
    path.join(dir, 'events.jsonl'),
    Array.from({ length: 30 }, (_, seq) => JSON.stringify({ seq, kind: 'state', at })).join('\n'),
  );
  writeFileSync(path.join(dir, 'edits', 'index.json'), JSON.stringify({ files: { 'src/Calc.cs': { existed: true, blob: '0.orig' } } }));
  writeFileSync(path.join(dir, 'edits', '0.orig'), CALC_BEFORE);
  const intent = {
    version: 1,
    runId,
    startedAt: at,
    hostname: os.hostname(),
    workspaceRoot: workspace,
    done: true,
    files: [
      { filePath: 'src/Calc.cs', type: 'MODIFY', originalSha256: null, newContent: CALC_AFTER, originalContent: CALC_BEFORE, diffText: '' },
    ],
  };
  writeFileSync(path.join(dir, 'edits', 'apply-intent.json'), JSON.stringify(intent, null, 1));
  writeFileSync(path.join(dir, 'validations', '1.json'), JSON.stringify({ tests: [], padding: 'y'.repeat(2000) }));
}

function workspaceWith(history: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), `ironbees-run-start-${history}-`));
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(path.join(dir, 'src', 'Calc.cs'), CALC_BEFORE);
  for (let i = 0; i < history; i += 1) pastRun(dir, i);
  return dir;
}

/** Milliseconds from execute() to the first state; the new run's folder is removed after, so history stays as made. */
async function startOnce(workspace: string): Promise<number> {
  const host = createNodeHost(workspace);
  const steps = new FakeSteps().script('captureBaseline', { output: baseline() });
  const controller = new AbortController();
  const started = performance.now();
  const runs = orchestratorOver(host, steps).execute('Fix Add', workflow({ workspaceRoot: workspace }), controller.signal);
  const iterator = runs[Symbol.asyncIterator]();
  const first = await iterator.next();
  const elapsed = performance.now() - started;
  controller.abort();
  while (!(await iterator.next()).done) {
    // Drain to the end so the run lock is released.
  }
  if (first.done) throw new Error('the run produced no state');
  rmSync(new RunStore(host).runDir(first.value.stateId), { recursive: true, force: true });
  return elapsed;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const range = (values: number[]): string => `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;

async function main(): Promise<void> {
  const empty = workspaceWith(0);
  const full = workspaceWith(HISTORY);
  try {
    // Warm-up: module loading and the first disk reads are not what is measured. The history was
    // made as an earlier version leaves it (no index of open apply records), so the first start on
    // it walks runs/ once (open-apply-index.ts): shown apart, it is paid once per workspace.
    await startOnce(empty);
    const upgrade = await startOnce(full);
    const times: { empty: number[]; full: number[] } = { empty: [], full: [] };
    for (let i = 0; i < RUNS; i += 1) {
      times.empty.push(await startOnce(empty));
      times.full.push(await startOnce(full));
    }
    const ratio = median(times.full) / median(times.empty);
    process.stdout.write(`run start → first state, median of ${RUNS} (range), real disk, fake steps\n`);
    process.stdout.write(`  0 past runs:     ${median(times.empty).toFixed(1)} ms (${range(times.empty)})\n`);
    process.stdout.write(`  ${HISTORY} past runs: ${median(times.full).toFixed(1)} ms (${range(times.full)})\n`);
    process.stdout.write(`  ratio ${ratio.toFixed(2)}× (goal ≈ 1.0×)\n`);
    process.stdout.write(
      `  first start on the ${HISTORY} runs of an earlier version (one walk of runs/, once): ${upgrade.toFixed(1)} ms\n`,
    );
  } finally {
    rmSync(empty, { recursive: true, force: true });
    rmSync(full, { recursive: true, force: true });
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
