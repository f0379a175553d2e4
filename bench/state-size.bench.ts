// What a change that breaks 500 tests (long messages, deep stacks) costs a run, against the same run
// with all 500 passing: the largest `--json` line (a CodingState snapshot), state.json, the full
// results file, peak memory (max RSS of a process doing only that run) and the orchestration time.
// The run goes through the real baseline and validate steps with a scripted `dotnet` (no build, no
// model), so what is measured is Ironbees alone (both scenarios hold the scripted dotnet's 500-failure
// TRX text, which a real run would not: it is another process's). Goals (issue 15): no line and no state.json over
// 256 KB; peak memory within 1.2× of the run without failures.
// Run: node --import tsx bench/state-size.bench.ts   (IRONBEES_BENCH_RUNS=N, default 3 of each, interleaved)

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { generatedFailures } from '../test/support/many-failures';
import { trxOf } from '../test/unit/dotnet/fake-dotnet';
import { runThatBreaks } from '../test/unit/workflow/breaking-run';

const RUNS = Number(process.env.IRONBEES_BENCH_RUNS ?? 3);
const TESTS = 500;

interface Figures {
  largestLineBytes: number;
  stateJsonBytes: number;
  resultsFileBytes: number;
  maxRssMiB: number;
  runMs: number;
}

async function child(failing: number): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ironbees-state-size-'));
  const controller = new AbortController();
  // What the scripted dotnet holds to answer with 500 failures (in a real run it is another process's):
  // made in both scenarios, so the difference measured is Ironbees' own.
  const fakesShare = failing === 0 ? trxOf(generatedFailures(dir, TESTS)) : '';
  try {
    const startedAt = performance.now();
    const { states, runId } = await runThatBreaks(dir, { tests: TESTS, failing, baselineFailing: 0 }, controller.signal);
    const runMs = performance.now() - startedAt;
    const runDir = path.join(dir, '.ironbees', 'runs', runId);
    const validations = path.join(runDir, 'validations');
    const figures: Figures = {
      largestLineBytes: Math.max(...states.map((state) => Buffer.byteLength(JSON.stringify(state)))),
      stateJsonBytes: statSync(path.join(runDir, 'state.json')).size,
      resultsFileBytes: readdirSync(validations).reduce((sum, file) => sum + statSync(path.join(validations, file)).size, 0),
      maxRssMiB: process.resourceUsage().maxRSS / 1024,
      runMs,
    };
    if (fakesShare.length < 0) throw new Error('unreachable: keeps the scripted dotnet share alive to the end');
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    controller.abort();
    rmSync(dir, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function measure(failing: number): Figures {
  const result = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--child', String(failing)], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (result.status !== 0) throw new Error(`child (${failing} failing) exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}') as Figures;
}

function main(): void {
  const runs: Record<'failing' | 'passing', Figures[]> = { failing: [], passing: [] };
  for (let run = 0; run < RUNS; run++) {
    runs.failing.push(measure(TESTS));
    runs.passing.push(measure(0));
  }
  const row = (label: string, figures: Figures[]) => {
    const of = (key: keyof Figures) => figures.map((figure) => figure[key]);
    const range = (key: keyof Figures, digits: number) =>
      `${median(of(key)).toFixed(digits)} (${Math.min(...of(key)).toFixed(digits)}–${Math.max(...of(key)).toFixed(digits)})`;
    console.log(
      `${label.padEnd(22)} line ${(median(of('largestLineBytes')) / 1024).toFixed(1)} KB · state.json ${(median(of('stateJsonBytes')) / 1024).toFixed(1)} KB · results files ${(median(of('resultsFileBytes')) / 1024).toFixed(0)} KB · peak RSS ${range('maxRssMiB', 0)} MiB · run ${range('runMs', 0)} ms`,
    );
  };
  console.log(`state size with ${TESTS} failing tests vs ${TESTS} passing (${RUNS} runs each, interleaved; medians, ranges in brackets)`);
  row(`${TESTS} failing`, runs.failing);
  row(`${TESTS} passing`, runs.passing);
  const ratio = median(runs.failing.map((figure) => figure.maxRssMiB)) / median(runs.passing.map((figure) => figure.maxRssMiB));
  console.log(`peak memory ratio failing/passing: ${ratio.toFixed(2)} (goal ≤ 1.20); largest line and state.json goal ≤ 256 KB`);
}

const at = process.argv.indexOf('--child');
if (at >= 0) void child(Number(process.argv[at + 1]));
else main();
