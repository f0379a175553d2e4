// What a CLI run spends around and between its work (issue 15, overhead ≤ 1 %): from the process start
// to the run's first trace event (node, loading the bundle, the dotnet SDK check, assembling the
// runtime), from its last event to the process exit (stopping what the run started), and inside the
// run the gaps no timed event covers (model calls, tool calls, builds and tests are timed events; the
// VALIDATE phase is all dotnet's — its failing-first `dotnet vstest` round has no event of its own).
// Real `--demo --yes` runs (real dotnet, Roslyn off) of the calculator fixture: one iteration as it is,
// two iterations with a second wrong operator (the scripted model fixes one per attempt). The SDK cache
// and the code cache live in a fresh folder warmed by a first run of each bundle.
// Compare bundles with IRONBEES_BEFORE_CLI=/path/to/an/older/dist/cli.js (runs interleaved); IRONBEES_CLI
// measures another copy than this checkout's dist/cli.js.
// Node's own start is measured too (`node -e 0`, outside any run): it is in every figure but not ours.
// When NODE_EXTRA_CA_CERTS is set (corporate proxies, and this sandbox: the whole system CA bundle), Node 20
// parses that file at every start, before any of our code: every run is measured twice, with the
// environment as it is and without that variable, interleaved. The process's own CPU time (children
// excluded, written at exit by bench/support/exit-cpu.cjs) is reported beside the wall-clock figures: work
// that overlaps dotnet's still counts there.
// Run: npm run build && node --import tsx bench/cli-overhead.bench.ts   (IRONBEES_BENCH_RUNS=N, default 3)

import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const RUNS = Number(process.env.IRONBEES_BENCH_RUNS ?? 3);
const REPO = path.join(__dirname, '..');
const FIXTURE = path.join(REPO, 'test', 'fixtures', 'calculator');
const TIMED_KINDS = new Set(['model_call', 'tool_call', 'validation', 'compile_check']);

interface Row {
  wallMs: number;
  startMs: number;
  exitMs: number;
  gapsMs: number;
  iterations: number;
  /** The ironbees process's own CPU time (user + system), its children excluded. */
  cpuMs: number;
}

const EXIT_CPU = path.join(__dirname, 'support', 'exit-cpu.cjs');

/** The environments each run is measured in: as given, and without NODE_EXTRA_CA_CERTS when it is set. */
function environments(): Array<[string, NodeJS.ProcessEnv]> {
  const given: Array<[string, NodeJS.ProcessEnv]> = [['env as is', process.env]];
  if (!process.env.NODE_EXTRA_CA_CERTS) return given;
  const { NODE_EXTRA_CA_CERTS: _extraCaCerts, ...withoutExtraCerts } = process.env;
  return [...given, ['no NODE_EXTRA_CA_CERTS', withoutExtraCerts]];
}

interface TraceEvent {
  kind: string;
  at: string;
  durationMs?: number;
  to?: string;
  from?: string;
  iteration?: number;
}

/** Scenarios: the fixture as it is (one attempt), and with Subtract broken too (two attempts). */
const SCENARIOS: Record<string, (workspace: string) => void> = {
  '1 iteration': () => {},
  '2 iterations': (workspace) => {
    const file = path.join(workspace, 'src', 'Calculator', 'Calculator.cs');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Subtract(int a, int b) => a - b;', 'Subtract(int a, int b) => a + b;'));
  },
};

/** In-run time no timed event covers, outside VALIDATE (dotnet's): the union of [at - durationMs, at] subtracted. */
function uncoveredMs(events: readonly TraceEvent[]): number {
  const spans: Array<[number, number]> = [];
  let validateFrom: number | null = null;
  for (const event of events) {
    const at = Date.parse(event.at);
    if (TIMED_KINDS.has(event.kind) && typeof event.durationMs === 'number') spans.push([at - event.durationMs, at]);
    if (event.kind === 'transition' && event.to === 'VALIDATE') validateFrom = at;
    if (event.kind === 'transition' && event.from === 'VALIDATE' && validateFrom !== null) {
      spans.push([validateFrom, at]);
      validateFrom = null;
    }
  }
  const first = Date.parse(events[0].at);
  const last = Date.parse(events[events.length - 1].at);
  spans.sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let reach = first;
  for (const [from, to] of spans) {
    const start = Math.max(from, reach);
    if (to > start) covered += to - start;
    reach = Math.max(reach, to);
  }
  return last - first - covered;
}

function runOnce(cli: string, cacheDir: string, prepare: (workspace: string) => void, given: NodeJS.ProcessEnv): Row {
  const workspace = mkdtempSync(path.join(tmpdir(), 'ironbees-overhead-'));
  const cpuFile = path.join(cacheDir, `cpu-${process.pid}.json`);
  try {
    cpSync(FIXTURE, workspace, { recursive: true, filter: (source) => !/[\\/](bin|obj)$/.test(source) });
    prepare(workspace);
    const env = {
      ...given,
      IRONBEES_ROSLYN: '0',
      IRONBEES_SDK_CACHE: '1',
      IRONBEES_CACHE_DIR: cacheDir,
      NO_COLOR: '1',
      IRONBEES_BENCH_CPU_FILE: cpuFile,
    };
    const startedAt = Date.now();
    const result = spawnSync(
      process.execPath,
      ['-r', EXIT_CPU, cli, 'run', 'Fix the failing Calculator tests', '--workspace', workspace, '--demo', '--yes', '--json'],
      { env, encoding: 'utf8', timeout: 600_000 },
    );
    const endedAt = Date.now();
    if (result.status !== 0) throw new Error(`${cli} exited ${result.status}: ${result.stderr.slice(-2000)}`);
    const runs = path.join(workspace, '.ironbees', 'runs');
    const runId = readdirSync(runs).find((entry) => /^\d{8}-/.test(entry)) ?? '';
    const events = readFileSync(path.join(runs, runId, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TraceEvent);
    const first = Date.parse(events[0]?.at ?? '');
    const last = Date.parse(events[events.length - 1]?.at ?? '');
    const iterations = Math.max(...events.map((event) => event.iteration ?? 0));
    const cpu = JSON.parse(readFileSync(cpuFile, 'utf8')) as { userUs: number; systemUs: number };
    const cpuMs = (cpu.userUs + cpu.systemUs) / 1000;
    return {
      wallMs: endedAt - startedAt,
      startMs: first - startedAt,
      exitMs: endedAt - last,
      gapsMs: uncoveredMs(events),
      iterations,
      cpuMs,
    };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(cpuFile, { force: true });
  }
}

/** Wall times of 15 `node -e 0` (Node's own start and exit, none of ours). */
function nodeStartMs(env: NodeJS.ProcessEnv): number[] {
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const startedAt = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', '0'], { env });
    times.push(Number(process.hrtime.bigint() - startedAt) / 1e6);
  }
  return times;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

const overheadOf = (row: Row): number => row.startMs + row.exitMs + row.gapsMs;
const shareOf = (row: Row): number => (100 * overheadOf(row)) / row.wallMs;

function main(): void {
  const bundles: Array<[string, string]> = [['this build', process.env.IRONBEES_CLI ?? path.join(REPO, 'dist', 'cli.js')]];
  if (process.env.IRONBEES_BEFORE_CLI) bundles.unshift(['before', process.env.IRONBEES_BEFORE_CLI]);
  const envs = environments();
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'ironbees-overhead-cache-'));
  const rows = new Map<string, Row[]>();
  const nodeStarts = new Map<string, number[]>();
  try {
    for (const [, cli] of bundles) runOnce(cli, cacheDir, SCENARIOS['1 iteration'], process.env); // warms dotnet, NuGet and both caches alike
    for (let run = 0; run < RUNS; run++) {
      for (const [scenario, prepare] of Object.entries(SCENARIOS)) {
        for (const [envLabel, env] of envs) {
          for (const [label, cli] of bundles) {
            const key = `${scenario} · ${label} · ${envLabel}`;
            rows.set(key, [...(rows.get(key) ?? []), runOnce(cli, cacheDir, prepare, env)]);
          }
        }
      }
    }
    for (const [envLabel, env] of envs) nodeStarts.set(envLabel, nodeStartMs(env));
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
  const show = (values: number[], unit = ' ms', digits = 0) =>
    `${median(values).toFixed(digits)}${unit} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
  console.log(`CLI run overhead, calculator fixture (--demo --yes, ${RUNS} runs each, medians; ranges in brackets)`);
  for (const [envLabel, times] of nodeStarts)
    console.log(`  node -e 0 (Node's own start and exit, in every run) · ${envLabel}: ${show(times)}`);
  for (const [key, measured] of rows) {
    const of = (pick: (row: Row) => number) => measured.map(pick);
    console.log(
      `  ${key.padEnd(50)} iterations ${show(
        of((row) => row.iterations),
        '',
      )} · start → first event ${show(of((row) => row.startMs))} · ` +
        `last event → exit ${show(of((row) => row.exitMs))} · gaps ${show(of((row) => row.gapsMs))} · wall ${show(of((row) => row.wallMs))} · ` +
        `overhead ${show(of(overheadOf))} = ${show(of(shareOf), ' %', 2)} of wall · own CPU ${show(of((row) => row.cpuMs))}`,
    );
  }
}

main();
