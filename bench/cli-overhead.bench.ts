// What a CLI run spends around its work (issue 15, overhead): from the process start to the run's first
// trace event (loading the bundle, the dotnet SDK check, assembling the runtime) and from its last
// event to the process exit (stopping what the run started). A real `--demo --yes` run on the
// calculator fixture (real dotnet, Roslyn off), with the SDK cache in a fresh folder warmed by a first
// run. Compare bundles with IRONBEES_BEFORE_CLI=/path/to/an/older/dist/cli.js (runs interleaved).
// Run: npm run build && node --import tsx bench/cli-overhead.bench.ts   (IRONBEES_BENCH_RUNS=N, default 3)

import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const RUNS = Number(process.env.IRONBEES_BENCH_RUNS ?? 3);
const REPO = path.join(__dirname, '..');
const FIXTURE = path.join(REPO, 'test', 'fixtures', 'calculator');

interface Row {
  wallMs: number;
  startMs: number;
  exitMs: number;
}

function runOnce(cli: string, cacheDir: string): Row {
  const workspace = mkdtempSync(path.join(tmpdir(), 'ironbees-overhead-'));
  try {
    cpSync(FIXTURE, workspace, { recursive: true, filter: (source) => !/[\\/](bin|obj)$/.test(source) });
    const env = { ...process.env, IRONBEES_ROSLYN: '0', IRONBEES_SDK_CACHE: '1', IRONBEES_CACHE_DIR: cacheDir, NO_COLOR: '1' };
    const startedAt = Date.now();
    const result = spawnSync(process.execPath, [cli, 'run', 'Fix the failing Calculator test', '--workspace', workspace, '--demo', '--yes', '--json'], { env, encoding: 'utf8', timeout: 600_000 });
    const endedAt = Date.now();
    if (result.status !== 0) throw new Error(`${cli} exited ${result.status}: ${result.stderr.slice(-2000)}`);
    const runs = path.join(workspace, '.ironbees', 'runs');
    const runId = readdirSync(runs).find((entry) => /^\d{8}-/.test(entry)) ?? '';
    const events = readFileSync(path.join(runs, runId, 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { at: string });
    const first = Date.parse(events[0]?.at ?? '');
    const last = Date.parse(events[events.length - 1]?.at ?? '');
    return { wallMs: endedAt - startedAt, startMs: first - startedAt, exitMs: endedAt - last };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function main(): void {
  const bundles: Array<[string, string]> = [['this build', path.join(REPO, 'dist', 'cli.js')]];
  if (process.env.IRONBEES_BEFORE_CLI) bundles.unshift(['before', process.env.IRONBEES_BEFORE_CLI]);
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'ironbees-overhead-cache-'));
  const rows = new Map<string, Row[]>(bundles.map(([label]) => [label, []]));
  try {
    for (const [, cli] of bundles) runOnce(cli, cacheDir); // warms dotnet, NuGet and the SDK cache alike
    for (let run = 0; run < RUNS; run++) for (const [label, cli] of bundles) rows.get(label)?.push(runOnce(cli, cacheDir));
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
  console.log(`CLI run overhead on the calculator fixture (--demo, ${RUNS} runs each, medians; ranges in brackets)`);
  for (const [label, measured] of rows) {
    const of = (key: keyof Row) => measured.map((row) => row[key]);
    const show = (key: keyof Row) => `${median(of(key))} ms (${Math.min(...of(key))}–${Math.max(...of(key))})`;
    console.log(`  ${label.padEnd(11)} start → first event ${show('startMs')} · last event → exit ${show('exitMs')} · wall ${show('wallMs')}`);
  }
}

main();
