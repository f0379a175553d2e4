// Phases in parallel (`ironbees run --parallel N`): three independent phases on the 12-project
// fixture (support/multi-fixture.ts, in a git repository), each adding a file to its own library,
// against a scripted fake Messages API that "thinks" IRONBEES_BENCH_THINK_MS (default 5 s) before
// every answer. The built CLI runs `--yes --review off` with `--parallel 3` and with `--parallel 1`,
// interleaved, each on a fresh copy; wall time (medians), the largest phase worktree on disk, and the
// peak memory of the CLI with every process under it (sampled each second).
// Goal: --parallel 3 ≤ 0.6 × --parallel 1. Run: npm run build && node --import tsx bench/parallel-phases.bench.ts
// (IRONBEES_BENCH_RUNS=N, default 3; IRONBEES_BENCH_COLD=1 adds phase worktrees started cold, for comparison;
// IRONBEES_BENCH_KEEP=1 keeps the workspaces).

import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../test/support/fake-anthropic';
import type { FakeRequest, FakeTurn } from '../test/support/fake-anthropic';
import { growMultiFixture } from './support/multi-fixture';

const RUNS = Number(process.env.IRONBEES_BENCH_RUNS ?? 3);
const THINK_MS = Number(process.env.IRONBEES_BENCH_THINK_MS ?? 5_000);
/** Turns each phase's coder spends reading its project file before it edits (a coder that looks first). */
const READS = Number(process.env.IRONBEES_BENCH_READS ?? 0);
/** IRONBEES_BENCH_KEEP=1 keeps each run's workspace (its run folders, events.jsonl) and prints where. */
const KEEP = process.env.IRONBEES_BENCH_KEEP === '1';
const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
const PHASES = ['Feature1', 'Feature2', 'Feature3'];

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

function firstMessage(request: FakeRequest): string {
  const content = request.body.messages[0]?.content;
  if (typeof content === 'string') return content;
  return (content ?? []).map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n');
}

const PLAN = {
  spec: 'Each of Feature1..3 gains an Extra class.',
  plan: {
    summary: 'Three independent additions.',
    complexity: 'LOW',
    phases: PHASES.map((library) => ({
      id: library.toLowerCase(),
      name: `Extend ${library}`,
      description: `Add ${library}.Extra`,
      dependencies: [],
      steps: [{ number: 1, description: 'Create Extra', actionType: 'CREATE', filePath: `src/${library}/Extra.cs`, rationale: '' }],
      affectedFiles: [`src/${library}/Extra.cs`],
    })),
  },
};

/** The planner gets the plan; each phase's coder creates its file, then submits; every answer after THINK_MS. */
function scriptedModel(): (request: FakeRequest) => Promise<FakeTurn> {
  const turns = new Map<string, number>();
  return async (request) => {
    await new Promise((resolve) => setTimeout(resolve, THINK_MS));
    const library = /# Phase \d+ of \d+: Extend (\w+)/.exec(firstMessage(request))?.[1];
    if (!library) return toolUse('submit_plan', PLAN);
    const turn = turns.get(library) ?? 0;
    turns.set(library, turn + 1);
    if (turn < READS) return toolUse('read_file', { path: `src/${library}/${library}.csproj` });
    if (turn > READS) return toolUse('submit_changes', { summary: `Added ${library}.Extra.` });
    const file_text = `namespace ${library};\n\npublic static class Extra\n{\n    public static int Answer => 42;\n}\n`;
    return toolUse('str_replace_based_edit_tool', { command: 'create', path: `src/${library}/Extra.cs`, file_text });
  };
}

/** Resident memory of `pid` and every process under it, in KiB. */
function treeRssKb(pid: number): number {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,rss='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((row) => row.length === 3);
  const tree = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [child, parent] of rows) {
      if (!tree.has(child as number) && tree.has(parent as number)) {
        tree.add(child as number);
        grew = true;
      }
    }
  }
  return rows.filter(([child]) => tree.has(child as number)).reduce((sum, row) => sum + (row[2] as number), 0);
}

/** The largest phase worktree now, in KiB (0 when there is none). */
function largestWorktreeKb(workspace: string): number {
  const dir = path.join(workspace, '.ironbees', 'worktrees');
  if (!existsSync(dir)) return 0;
  let largest = 0;
  for (const name of readdirSync(dir).filter((n) => n.includes('-phase-') && !n.endsWith('.json'))) {
    try {
      largest = Math.max(largest, Number(execFileSync('du', ['-sk', path.join(dir, name)], { encoding: 'utf8' }).split('\t')[0]));
    } catch {
      // removed while measured
    }
  }
  return largest;
}

interface Measured {
  ms: number;
  peakRssKb: number;
  worktreeKb: number;
  /** Where the time went: per run folder (the run, each phase's run), seconds in INIT, CODE and VALIDATE. */
  steps: string;
}

/** Seconds each run of the workspace spent in INIT, CODE and VALIDATE, from its events.jsonl transitions. */
function stepTimes(workspace: string): string {
  const runs = path.join(workspace, '.ironbees', 'runs');
  const lines: string[] = [];
  for (const runId of existsSync(runs) ? readdirSync(runs).sort() : []) {
    const file = path.join(runs, runId, 'events.jsonl');
    if (!existsSync(file)) continue;
    const events = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { kind: string; at: string; to: string; durationMs?: number });
    const transitions = events.filter((event) => event.kind === 'transition');
    const spentIn = (kind: string): number =>
      events.filter((event) => event.kind === kind).reduce((sum, event) => sum + (event.durationMs ?? 0), 0);
    const modelMs = spentIn('model_call');
    const compileMs = spentIn('compile_check');
    const spent = new Map<string, number>();
    transitions.forEach((event, index) => {
      const next = transitions[index + 1];
      if (next) spent.set(event.to, (spent.get(event.to) ?? 0) + Date.parse(next.at) - Date.parse(event.at));
    });
    const part = ['INIT', 'CODE', 'VALIDATE'].map((node) => `${node} ${((spent.get(node) ?? 0) / 1000).toFixed(1)} s`).join(', ');
    lines.push(
      `    ${runId.replace(/^[0-9-]+[a-f0-9]{6}/, 'run')}: ${part} (model calls ${(modelMs / 1000).toFixed(1)} s, compile checks ${(compileMs / 1000).toFixed(1)} s)`,
    );
  }
  return lines.join('\n');
}

/** A way to run: `--parallel N`, and for the cold variant the warm start of phase worktrees turned off. */
interface Variant {
  name: string;
  parallel: number;
  env: Record<string, string>;
}
const ONE: Variant = { name: '--parallel 1', parallel: 1, env: {} };
const THREE: Variant = { name: '--parallel 3', parallel: 3, env: {} };
const THREE_COLD: Variant = {
  name: '--parallel 3 cold',
  parallel: 3,
  env: { IRONBEES_WARM_WORKTREES: '0', IRONBEES_PHASE_ENGINE_AHEAD: '0' },
};
/** IRONBEES_BENCH_COLD=1 adds a `--parallel 3` run per round whose worktrees start cold (no copied output, engine at the first check). */
const VARIANTS = process.env.IRONBEES_BENCH_COLD === '1' ? [THREE, ONE, THREE_COLD] : [THREE, ONE];

async function measure(template: string, variant: Variant): Promise<Measured> {
  const parallel = variant.parallel;
  const workspace = mkdtempSync(path.join(tmpdir(), `ironbees-bench-parallel${parallel}-`));
  cpSync(template, workspace, { recursive: true });
  const fake = await startFakeAnthropic();
  const model = scriptedModel();
  fake.enqueue(...Array.from({ length: 1 + PHASES.length * (READS + 2) }, () => model));
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      CLI,
      'run',
      'Add an Extra class to Feature1, 2 and 3',
      '--workspace',
      workspace,
      '--yes',
      '--review',
      'off',
      '--parallel',
      String(parallel),
    ],
    {
      env: { ...process.env, ...variant.env, NO_COLOR: '1', ANTHROPIC_API_KEY: 'sk-bench', ANTHROPIC_BASE_URL: fake.url },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let peakRssKb = 0;
  let worktreeKb = 0;
  const sampler = setInterval(() => {
    try {
      peakRssKb = Math.max(peakRssKb, treeRssKb(child.pid as number));
      worktreeKb = Math.max(worktreeKb, largestWorktreeKb(workspace));
    } catch {
      // the process ended between two samples
    }
  }, 1_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const ms = performance.now() - started;
  clearInterval(sampler);
  await fake.close();
  if (code !== 0) throw new Error(`--parallel ${parallel} ended with ${code}:\n${stderr.slice(-4000)}`);
  const left = git(workspace, 'worktree', 'list').split('\n').length;
  if (left !== 1) throw new Error(`--parallel ${parallel} left ${left - 1} worktree(s)`);
  const steps = stepTimes(workspace);
  if (KEEP) {
    writeFileSync(path.join(workspace, 'cli-stderr.log'), stderr);
    console.log(`kept ${workspace} (the CLI's stderr in cli-stderr.log)`);
  } else rmSync(workspace, { recursive: true, force: true });
  return { ms, peakRssKb, worktreeKb, steps };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const mib = (kb: number): string => `${(kb / 1024).toFixed(0)} MiB`;

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error('Build the CLI first: npm run build');
  const template = mkdtempSync(path.join(tmpdir(), 'ironbees-bench-parallel-template-'));
  try {
    await growMultiFixture(template, async (projects) => {
      execFileSync('dotnet', ['sln', 'Multi.sln', 'add', ...projects], { cwd: template, stdio: 'ignore' });
    });
    git(template, 'init', '--quiet', '--initial-branch=main');
    git(template, 'add', '-A');
    git(template, '-c', 'user.email=bench@localhost', '-c', 'user.name=Bench', 'commit', '--quiet', '-m', 'fixture');
    console.log(
      `12 projects, ${PHASES.length} independent phases, model thinks ${THINK_MS / 1000} s per turn, ${READS + 2} coder turns per phase, ${RUNS} runs interleaved; load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    const results = new Map<Variant, Measured[]>(VARIANTS.map((variant) => [variant, []]));
    const of = (variant: Variant): Measured[] => results.get(variant) ?? [];
    for (let run = 0; run < RUNS; run += 1) {
      // Interleaved: the order turns round every round, so a change of the machine's load hits every variant.
      const order = run % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
      const round = new Map<Variant, number>();
      for (const variant of order) {
        const measured = await measure(template, variant);
        of(variant).push(measured);
        round.set(variant, measured.ms);
        console.log(
          `run ${run + 1} ${variant.name}: ${seconds(measured.ms)}, peak ${mib(measured.peakRssKb)}, largest worktree ${mib(measured.worktreeKb)}; load ${loadavg()[0]?.toFixed(2)}\n${measured.steps}`,
        );
      }
      const pair = VARIANTS.filter((v) => v !== ONE).map(
        (v) => `${v.name} / --parallel 1 = ${((round.get(v) ?? 0) / (round.get(ONE) ?? 1)).toFixed(2)}`,
      );
      console.log(`run ${run + 1}: ${pair.join('; ')}`);
    }
    const one = median(of(ONE).map((m) => m.ms));
    for (const variant of VARIANTS.filter((v) => v !== ONE)) {
      const three = median(of(variant).map((m) => m.ms));
      console.log(
        `median --parallel 1: ${seconds(one)}; ${variant.name}: ${seconds(three)}; ratio ${(three / one).toFixed(2)} (goal ≤ 0.60)`,
      );
    }
    console.log(
      `peak memory (median) --parallel 1: ${mib(median(of(ONE).map((m) => m.peakRssKb)))}; --parallel 3: ${mib(median(of(THREE).map((m) => m.peakRssKb)))}; disk per phase worktree (largest seen): ${mib(Math.max(...of(THREE).map((m) => m.worktreeKb)))}`,
    );
  } finally {
    rmSync(template, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
