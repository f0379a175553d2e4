// How long one validation takes after a one-file edit, against two references, on a grown copy of the
// `multi` fixture (the fixture plus generated libraries and test projects):
//   (a) Ironbees: validate() after captureBaseline() (and, for the record, the same without build servers,
//       and the same with its tests through `dotnet test` instead of the built assemblies: IRONBEES_TEST_FROM_ASSEMBLY=0);
//   (b) naive: clean bin/obj, then `dotnet build && dotnet test` on the solution (what a --test-cmd loop does);
//   (c) limit: by hand, an incremental build of the one affected test project and its tests only
//       (`dotnet test --no-build`, and `dotnet vstest` on its assembly: no second MSBuild evaluation).
// Goals: (a) ≤ 0.4 × (b) and (a) ≤ 1.15 × (c). Runs are interleaved so machine load hits all alike.
// (a) runs in the sandbox where one is available (src/core/platform/sandbox.ts); each run also times (a) with
// `--sandbox off`, for the sandbox's cost (goal: (a) ≤ 1.05 × (a, no sandbox)).
// Run: npm run bench   (IRONBEES_BENCH_RUNS=N changes the number of runs; default 5, naive and no-server 3;
// IRONBEES_BENCH_SANDBOX_ONLY=1 times only (a) with and without the sandbox).

import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Host } from '../src/core/host';
import type { TraceEvent } from '../src/core/trace';
import { captureBaseline, validate } from '../src/core/dotnet/validator';
import { buildEnv, shutdownBuildServers } from '../src/core/dotnet/dotnet-cli';
import { checkSandbox, setSandboxMode } from '../src/core/platform/sandbox';
import { createNodeHost } from '../src/host/node/index';
import { EXTRA_LIBRARIES, growMultiFixture } from './support/multi-fixture';

const RUNS = Number(process.env.IRONBEES_BENCH_RUNS ?? 5);
const NAIVE_RUNS = Math.min(RUNS, 3);
const SANDBOX_ONLY = process.env.IRONBEES_BENCH_SANDBOX_ONLY === '1';
/** IRONBEES_BENCH_LIMIT_ONLY=1: only (a), (a) without the sandbox and (d), interleaved (the issue's ratio, quickly). */
const LIMIT_ONLY = process.env.IRONBEES_BENCH_LIMIT_ONLY === '1';
const COMMAND_LIMIT_MS = 600_000;
const EDITED_FILE = 'src/Reporting/Report.cs';
const AFFECTED_TESTS = 'tests/Reporting.Tests/Reporting.Tests.csproj';
const AFFECTED_ASSEMBLY = 'tests/Reporting.Tests/bin/Debug/net10.0/Reporting.Tests.dll';

/** dotnet's own defaults (node reuse and shared compiler on, MSBuild server off), with a salt of our own so we never touch a developer's nodes. */
const DOTNET_DEFAULT_ENV: Record<string, string> = {
  MSBUILDDISABLENODEREUSE: '0',
  UseSharedCompilation: 'true',
  DOTNET_CLI_USE_MSBUILD_SERVER: '0',
  MSBUILDNODEHANDSHAKESALT: `ironbees-bench-default-${process.pid}`,
};
const quietLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => console.error(message),
  error: (message: string) => console.error(message),
};

/** The 12-project fixture (bench/support/multi-fixture.ts), with a line the timed edits toggle. */
async function growWorkspace(host: Host): Promise<void> {
  const root = host.workspaceRoot;
  // `dotnet sln add` writes the configuration entries a .sln needs for a project to be built.
  await growMultiFixture(root, (added) => dotnet(host, ['sln', 'Multi.sln', 'add', ...added], DOTNET_DEFAULT_ENV));
  const report = path.join(root, EDITED_FILE);
  writeFileSync(
    report,
    readFileSync(report, 'utf8').replace(
      'public string Title { get; }',
      'public static int Revision => 0;\n\n    public string Title { get; }',
    ),
  );
}

interface Timings {
  ironbees: number[];
  ironbeesNoSandbox: number[];
  ironbeesNoServers: number[];
  ironbeesDotnetTest: number[];
  naive: number[];
  limitVstest: number[];
  limitSameEnv: number[];
  limitDefaultEnv: number[];
}

/** Ironbees as it runs with build servers turned off (the setting is read at each command). */
async function withoutBuildServers(action: () => Promise<void>): Promise<void> {
  await withEnv('IRONBEES_DOTNET_BUILD_SERVERS', '0', action);
}

/** Runs `action` with one environment variable set (Ironbees reads its settings at each command). */
async function withEnv(name: string, value: string, action: () => Promise<void>): Promise<void> {
  const previous = process.env[name];
  process.env[name] = value;
  try {
    await action();
  } finally {
    if (previous === undefined) delete process.env[name];
    else process.env[name] = previous;
  }
}

let revision = 0;
/** A one-line change to a method body, different every time, as an agent's fix would be. */
function editOneFile(root: string): void {
  const file = path.join(root, EDITED_FILE);
  revision += 1;
  writeFileSync(file, readFileSync(file, 'utf8').replace(/Revision => \d+;/, `Revision => ${revision};`));
}

function removeBuildOutput(dir: string): void {
  for (const entry of ['bin', 'obj']) rmSync(path.join(dir, entry), { recursive: true, force: true });
}

function cleanAll(root: string): void {
  for (const group of ['src', 'tests']) {
    for (const project of readdirSync(path.join(root, group))) removeBuildOutput(path.join(root, group, project));
  }
}

async function dotnet(host: Host, args: string[], env: Record<string, string>): Promise<void> {
  const result = await host.process.run('dotnet', args, { cwd: host.workspaceRoot, timeoutMs: COMMAND_LIMIT_MS, env });
  if (result.exitCode !== 0) throw new Error(`dotnet ${args.join(' ')} failed (${result.exitCode}):\n${result.stdout.slice(-3000)}`);
}

async function timed(action: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'ironbees-bench-'));
  const timings: Timings = {
    ironbees: [],
    ironbeesNoSandbox: [],
    ironbeesNoServers: [],
    ironbeesDotnetTest: [],
    naive: [],
    limitSameEnv: [],
    limitDefaultEnv: [],
    limitVstest: [],
  };
  const host = createNodeHost(root, { logger: quietLogger });
  try {
    await growWorkspace(host);
    console.log(`workspace: ${root} (${4 + EXTRA_LIBRARIES * 2} projects); edit: ${EDITED_FILE}; runs: ${RUNS} (naive ${NAIVE_RUNS})`);
    const timeouts = { buildMs: COMMAND_LIMIT_MS, testMs: COMMAND_LIMIT_MS };
    const startedBaseline = performance.now();
    const baseline = await captureBaseline({ host, timeouts });
    const baselineMs = performance.now() - startedBaseline;
    if (!baseline.build.success || !baseline.test?.success)
      throw new Error(`the bench workspace does not pass: ${JSON.stringify(baseline.build.errors.slice(0, 3))}`);
    console.log(`baseline (restore, full build, all tests; untimed below): ${seconds(baselineMs)}`);
    // Warm the by-hand commands too, so every variant starts from its own steady state.
    await dotnet(host, ['build', AFFECTED_TESTS, '--no-restore', '-nologo'], DOTNET_DEFAULT_ENV);

    const phases = { build: [] as number[], test: [] as number[] };
    const trace = {
      record: (event: TraceEvent): void => {
        const plain = process.env.IRONBEES_DOTNET_BUILD_SERVERS !== '0' && process.env.IRONBEES_TEST_FROM_ASSEMBLY !== '0';
        if (event.kind === 'validation' && event.phase !== 'baseline' && plain) phases[event.phase].push(event.durationMs);
      },
    };
    const validateOnce = async (): Promise<void> => {
      const outcome = await validate({ host, timeouts, trace, changedFiles: [EDITED_FILE], baseline });
      if (!outcome.passed) throw new Error(`validate failed: ${JSON.stringify(outcome.build.errors.slice(0, 3))}`);
    };
    const sandboxed = checkSandbox((message) => console.log(message)).active;
    for (let run = 0; run < RUNS; run += 1) {
      editOneFile(root);
      timings.ironbees.push(await timed(validateOnce));
      editOneFile(root);
      setSandboxMode('off');
      try {
        timings.ironbeesNoSandbox.push(await timed(validateOnce));
      } finally {
        setSandboxMode('auto');
      }
      if (SANDBOX_ONLY) {
        console.log(
          `run ${run + 1}: ironbees ${seconds(timings.ironbees.at(-1) ?? 0)}, without the sandbox ${seconds(timings.ironbeesNoSandbox.at(-1) ?? 0)}`,
        );
        continue;
      }
      if (LIMIT_ONLY) {
        editOneFile(root);
        timings.limitVstest.push(await timed(() => limitVstest(host)));
        console.log(
          `run ${run + 1}: ironbees ${seconds(timings.ironbees.at(-1) ?? 0)} (without the sandbox ${seconds(timings.ironbeesNoSandbox.at(-1) ?? 0)}), vstest limit ${seconds(timings.limitVstest.at(-1) ?? 0)}`,
        );
        continue;
      }
      editOneFile(root);
      timings.ironbeesDotnetTest.push(await timed(() => withEnv('IRONBEES_TEST_FROM_ASSEMBLY', '0', validateOnce)));
      if (run < NAIVE_RUNS) {
        editOneFile(root);
        timings.ironbeesNoServers.push(await timed(() => withoutBuildServers(validateOnce)));
      }
      for (const [variant, env] of [
        ['limitSameEnv', buildEnv()],
        ['limitDefaultEnv', DOTNET_DEFAULT_ENV],
      ] as const) {
        editOneFile(root);
        timings[variant].push(
          await timed(async () => {
            await dotnet(host, ['build', AFFECTED_TESTS, '--no-restore', '-nologo'], env);
            await dotnet(host, ['test', AFFECTED_TESTS, '--no-build', '--nologo'], env);
          }),
        );
      }
      editOneFile(root);
      timings.limitVstest.push(await timed(() => limitVstest(host)));
      if (run < NAIVE_RUNS) {
        editOneFile(root);
        cleanAll(root);
        timings.naive.push(
          await timed(async () => {
            await dotnet(host, ['build', '-nologo'], DOTNET_DEFAULT_ENV);
            await dotnet(host, ['test', '--nologo'], DOTNET_DEFAULT_ENV);
          }),
        );
        // The naive loop restored from scratch; give Ironbees' session its restore state back as it was.
        await dotnet(host, ['build', AFFECTED_TESTS, '--no-restore', '-nologo'], buildEnv());
      }
      console.log(
        `run ${run + 1}: ironbees ${seconds(timings.ironbees.at(-1) ?? 0)} (through dotnet test ${seconds(timings.ironbeesDotnetTest.at(-1) ?? 0)}), vstest limit ${seconds(timings.limitVstest.at(-1) ?? 0)}${run < NAIVE_RUNS ? ` (no servers ${seconds(timings.ironbeesNoServers.at(-1) ?? 0)})` : ''}, limit ${seconds(timings.limitSameEnv.at(-1) ?? 0)} / ${seconds(timings.limitDefaultEnv.at(-1) ?? 0)}${run < NAIVE_RUNS ? `, naive ${seconds(timings.naive.at(-1) ?? 0)}` : ''}`,
      );
    }
    if (SANDBOX_ONLY) reportSandbox(timings, sandboxed);
    else if (LIMIT_ONLY) reportLimit(timings, sandboxed);
    else report(timings, sandboxed);
    console.log(`  inside (a): build ${seconds(median(phases.build))}, tests ${seconds(median(phases.test))} (medians)`);
  } finally {
    await shutdownBuildServers(host);
    await host.process
      .run('dotnet', ['build-server', 'shutdown', '--msbuild'], { cwd: root, timeoutMs: 60_000, env: DOTNET_DEFAULT_ENV })
      .catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }
}

/** (d): the build of the affected test project and `dotnet vstest` on its assembly, by hand, with Ironbees' build servers. */
async function limitVstest(host: Host): Promise<void> {
  await dotnet(host, ['build', AFFECTED_TESTS, '--no-restore', '-nologo'], buildEnv());
  await dotnet(host, ['vstest', AFFECTED_ASSEMBLY], buildEnv());
}

function reportLimit(timings: Timings, sandboxed: boolean): void {
  const limit = median(timings.limitVstest);
  const paired = median(timings.ironbees.map((value, index) => value / (timings.limitVstest[index] ?? value)));
  console.log('\nmedians');
  console.log(`  (a) ironbees validate()${sandboxed ? ' in the sandbox' : ''}   ${seconds(median(timings.ironbees))}`);
  console.log(`      --sandbox off                       ${seconds(median(timings.ironbeesNoSandbox))}`);
  console.log(`  (d) build + dotnet vstest by hand      ${seconds(limit)}`);
  console.log(
    `  a / d = ${(median(timings.ironbees) / limit).toFixed(2)} (median of the paired runs' ratios ${paired.toFixed(2)}; goal ≤ 1.0), unsandboxed a / d = ${(median(timings.ironbeesNoSandbox) / limit).toFixed(2)}`,
  );
}

function reportSandbox(timings: Timings, sandboxed: boolean): void {
  const ours = median(timings.ironbees);
  const off = median(timings.ironbeesNoSandbox);
  console.log('\nmedians');
  console.log(`  (a) ironbees validate()${sandboxed ? ' in the sandbox' : ' (no sandbox here)'}   ${seconds(ours)}`);
  console.log(`      ironbees validate(), --sandbox off       ${seconds(off)}`);
  // Each run's pair was timed back to back: the median of their ratios is less moved by load drifting between runs.
  const paired = median(timings.ironbees.map((value, index) => value / (timings.ironbeesNoSandbox[index] ?? value)));
  console.log(
    `  sandbox cost: a / a(off) = ${(ours / off).toFixed(3)} (medians), ${paired.toFixed(3)} (median of the paired runs' ratios)  (goal ≤ 1.05: ${paired <= 1.05 ? 'meets goal' : 'MISSES goal'})`,
  );
}

function report(timings: Timings, sandboxed: boolean): void {
  const ours = median(timings.ironbees);
  const oursNoServers = median(timings.ironbeesNoServers);
  const naive = median(timings.naive);
  const limit = median(timings.limitSameEnv);
  const limitDefault = median(timings.limitDefaultEnv);
  const oursDotnetTest = median(timings.ironbeesDotnetTest);
  const limitVstest = median(timings.limitVstest);
  const verdict = (ok: boolean): string => (ok ? 'meets goal' : 'MISSES goal');
  console.log('\nmedians');
  console.log(`  (a) ironbees validate()                          ${seconds(ours)}`);
  console.log(`      ironbees without build servers               ${seconds(oursNoServers)} (IRONBEES_DOTNET_BUILD_SERVERS=0)`);
  console.log(`      ironbees with its tests through dotnet test   ${seconds(oursDotnetTest)} (IRONBEES_TEST_FROM_ASSEMBLY=0)`);
  console.log(`  (b) naive: clean + dotnet build && dotnet test   ${seconds(naive)}`);
  console.log(`  (c) limit: build + test the affected project     ${seconds(limit)} (same build servers as ironbees)`);
  console.log(`      limit with dotnet's default environment      ${seconds(limitDefault)}`);
  console.log(`  (d) limit: build + dotnet vstest on the assembly  ${seconds(limitVstest)} (same build servers as ironbees)`);
  console.log('ratios');
  console.log(`  a / b = ${(ours / naive).toFixed(2)}  (goal ≤ 0.40: ${verdict(ours / naive <= 0.4)})`);
  console.log(`  a / c = ${(ours / limit).toFixed(2)}  (goal ≤ 1.15: ${verdict(ours / limit <= 1.15)})`);
  console.log(
    `  a / d = ${(ours / limitVstest).toFixed(2)}  (the hand-made limit without a second MSBuild evaluation); through dotnet test: a / d = ${(oursDotnetTest / limitVstest).toFixed(2)}`,
  );
  console.log(
    `  a / c(default env) = ${(ours / limitDefault).toFixed(2)}; without build servers: a / b = ${(oursNoServers / naive).toFixed(2)}, a / c = ${(oursNoServers / limit).toFixed(2)}`,
  );
  reportSandbox(timings, sandboxed);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
