// The validation bench on a Microsoft.Testing.Platform solution: a copy of the `mtp-ledger` fixture
// (global.json selects MTP; an xunit v3 and an MSTest 4 project, both executables) with its bug fixed, so
// every validation passes. After a one-line edit of src/Ledger/Account.cs (both test projects see it):
//   (a) Ironbees: validate() after captureBaseline() (and the same with its tests through `dotnet test`
//       instead of the built test applications: IRONBEES_TEST_FROM_ASSEMBLY=0);
//   (b) naive: clean bin/obj, then `dotnet build && dotnet test` on the solution;
//   (c) limit: by hand, an incremental `dotnet build` of the solution and `dotnet test --no-build`;
//   (d) limit without a second MSBuild evaluation: the same build, then both test applications run as they are
//       (`dotnet exec <dll>`, at once: MSTest on the platform, xunit v3 with its own runner), in Ironbees'
//       environment (build servers on) and in dotnet's default one.
// Then, with Withdraw broken again: time to the first failing verdict with failing-first and without it.
// Runs are interleaved so machine load hits all alike. Packages restore from the NuGet feed once.
// Run: node --import tsx bench/validation-mtp.bench.ts   (IRONBEES_BENCH_RUNS=N, default 5; naive at most 3)

import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Host } from '../src/core/host';
import { captureBaseline, validate } from '../src/core/dotnet/validator';
import { buildEnv, shutdownBuildServers } from '../src/core/dotnet/dotnet-cli';
import { createNodeHost } from '../src/host/node/index';

const RUNS = Number(process.env.IRONBEES_BENCH_RUNS ?? 5);
const NAIVE_RUNS = Math.min(RUNS, 3);
/** IRONBEES_BENCH_LIMIT_ONLY=1: only (a) and (d), interleaved (the issue's ratio, quickly). */
const LIMIT_ONLY = process.env.IRONBEES_BENCH_LIMIT_ONLY === '1';
const COMMAND_LIMIT_MS = 600_000;
const EDITED_FILE = 'src/Ledger/Account.cs';
const TEST_APPS = [
  'tests/Ledger.MSTests/bin/Debug/net10.0/Ledger.MSTests.dll',
  'tests/Ledger.XunitTests/bin/Debug/net10.0/Ledger.XunitTests.dll',
];
/** dotnet's defaults where this machine's environment turns them off (as in validation.bench.ts). */
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

/** `dotnet test` exits 2 when a test fails; the bench's workspace has none, so any non-zero exit is an error. */
async function dotnet(host: Host, args: string[], env: Record<string, string>): Promise<void> {
  const result = await host.process.run('dotnet', args, { cwd: host.workspaceRoot, timeoutMs: COMMAND_LIMIT_MS, env });
  if (result.exitCode !== 0) throw new Error(`dotnet ${args.join(' ')} failed (${result.exitCode}):\n${result.stdout.slice(-3000)}`);
}

let revision = 0;
function editOneFile(root: string): void {
  const file = path.join(root, EDITED_FILE);
  revision += 1;
  writeFileSync(file, readFileSync(file, 'utf8').replace(/Revision => \d+;/, `Revision => ${revision};`));
}

function cleanAll(root: string): void {
  for (const group of ['src', 'tests']) {
    for (const project of readdirSync(path.join(root, group))) {
      for (const entry of ['bin', 'obj']) rmSync(path.join(root, group, project, entry), { recursive: true, force: true });
    }
  }
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
  const root = mkdtempSync(path.join(tmpdir(), 'ironbees-bench-mtp-'));
  const host = createNodeHost(root, { logger: quietLogger });
  const timings = {
    ironbees: [] as number[],
    ironbeesDotnetTest: [] as number[],
    naive: [] as number[],
    limit: [] as number[],
    limitDirect: [] as number[],
    limitDirectDefault: [] as number[],
  };
  try {
    cpSync(path.join(__dirname, '..', 'test', 'fixtures', 'mtp-ledger'), root, {
      recursive: true,
      filter: (source) => !/[\\/](bin|obj)$/.test(source),
    });
    const account = path.join(root, EDITED_FILE);
    writeFileSync(
      account,
      readFileSync(account, 'utf8').replace(
        '        Balance += amount;\n    }\n\n    public static',
        '        Balance -= amount;\n    }\n\n    public static int Revision => 0;\n\n    public static',
      ),
    );
    const timeouts = { buildMs: COMMAND_LIMIT_MS, testMs: COMMAND_LIMIT_MS };
    const baselineMs = await timed(async () => {
      const baseline = await captureBaseline({ host, timeouts });
      if (!baseline.build.success || !baseline.test?.success || baseline.test.total !== 6)
        throw new Error(`the bench workspace does not pass: ${JSON.stringify(baseline.test ?? baseline.build.errors.slice(0, 3))}`);
    });
    console.log(
      `workspace: ${root} (mtp-ledger, fixed); edit: ${EDITED_FILE}; runs: ${RUNS} (naive ${NAIVE_RUNS}); baseline ${seconds(baselineMs)}`,
    );
    const validateOnce = async (): Promise<void> => {
      const outcome = await validate({ host, timeouts, changedFiles: [EDITED_FILE], baseline: null });
      if (!outcome.passed || outcome.test?.total !== 6)
        throw new Error(`validate failed: ${JSON.stringify(outcome.test ?? outcome.build.errors.slice(0, 3))}`);
    };
    for (let run = 0; run < RUNS; run += 1) {
      editOneFile(root);
      timings.ironbees.push(await timed(validateOnce));
      if (LIMIT_ONLY) {
        editOneFile(root);
        timings.limitDirect.push(await timed(() => limitDirect(host, buildEnv())));
        console.log(
          `run ${run + 1}: ironbees ${seconds(timings.ironbees.at(-1) ?? 0)}, direct limit ${seconds(timings.limitDirect.at(-1) ?? 0)}`,
        );
        continue;
      }
      editOneFile(root);
      process.env.IRONBEES_TEST_FROM_ASSEMBLY = '0';
      try {
        timings.ironbeesDotnetTest.push(await timed(validateOnce));
      } finally {
        delete process.env.IRONBEES_TEST_FROM_ASSEMBLY;
      }
      editOneFile(root);
      timings.limitDirect.push(await timed(() => limitDirect(host, buildEnv())));
      editOneFile(root);
      timings.limitDirectDefault.push(await timed(() => limitDirect(host, DOTNET_DEFAULT_ENV)));
      editOneFile(root);
      timings.limit.push(
        await timed(async () => {
          await dotnet(host, ['build', '--no-restore', '-nologo'], buildEnv());
          await dotnet(host, ['test', '--no-build'], buildEnv());
        }),
      );
      if (run < NAIVE_RUNS) {
        editOneFile(root);
        cleanAll(root);
        timings.naive.push(
          await timed(async () => {
            await dotnet(host, ['build', '-nologo'], buildEnv());
            await dotnet(host, ['test'], buildEnv());
          }),
        );
      }
      console.log(
        `run ${run + 1}: ironbees ${seconds(timings.ironbees.at(-1) ?? 0)} (through dotnet test ${seconds(timings.ironbeesDotnetTest.at(-1) ?? 0)}), limit ${seconds(timings.limit.at(-1) ?? 0)}, direct limit ${seconds(timings.limitDirect.at(-1) ?? 0)} (default env ${seconds(timings.limitDirectDefault.at(-1) ?? 0)})${run < NAIVE_RUNS ? `, naive ${seconds(timings.naive.at(-1) ?? 0)}` : ''}`,
      );
    }
    const ours = median(timings.ironbees);
    if (LIMIT_ONLY) {
      const paired = median(timings.ironbees.map((value, index) => value / (timings.limitDirect[index] ?? value)));
      console.log(
        `\nmedians (MTP solution): (a) ${seconds(ours)}, (d) ${seconds(median(timings.limitDirect))}; a / d = ${(ours / median(timings.limitDirect)).toFixed(2)} (median of the paired runs' ratios ${paired.toFixed(2)}; goal ≤ 1.0)`,
      );
      return;
    }
    await failingFirstBench(host, timeouts);
    console.log('\nmedians (MTP solution)');
    console.log(`  (a) ironbees validate()                          ${seconds(ours)}`);
    console.log(
      `      ironbees with its tests through dotnet test   ${seconds(median(timings.ironbeesDotnetTest))} (IRONBEES_TEST_FROM_ASSEMBLY=0)`,
    );
    console.log(`  (b) naive: clean + dotnet build && dotnet test   ${seconds(median(timings.naive))}`);
    console.log(`  (c) limit: incremental build + test --no-build   ${seconds(median(timings.limit))}`);
    console.log(`  (d) limit: incremental build + the test apps     ${seconds(median(timings.limitDirect))}`);
    console.log(`      the same in dotnet's default environment      ${seconds(median(timings.limitDirectDefault))}`);
    console.log(
      `  a / b = ${(ours / median(timings.naive)).toFixed(2)}, a / c = ${(ours / median(timings.limit)).toFixed(2)}, a / d = ${(ours / median(timings.limitDirect)).toFixed(2)}, a / d(default env) = ${(ours / median(timings.limitDirectDefault)).toFixed(2)}; through dotnet test: a / d = ${(median(timings.ironbeesDotnetTest) / median(timings.limitDirect)).toFixed(2)}`,
    );
  } finally {
    await shutdownBuildServers(host);
    rmSync(root, { recursive: true, force: true });
  }
}

/** (d): the incremental build of the solution, then both test applications as they are, at once. */
async function limitDirect(host: Host, env: Record<string, string>): Promise<void> {
  await dotnet(host, ['build', '--no-restore', '-nologo'], env);
  await Promise.all(TEST_APPS.map((app) => dotnet(host, ['exec', app], env)));
}

/** Time to the first failing verdict after an edit that leaves Withdraw broken: failing-first vs the whole set. */
async function failingFirstBench(host: Host, timeouts: { buildMs: number; testMs: number }): Promise<void> {
  const account = path.join(host.workspaceRoot, EDITED_FILE);
  writeFileSync(account, readFileSync(account, 'utf8').replace('Balance -= amount;', 'Balance += amount;'));
  const failing = async (): Promise<void> => {
    const outcome = await validate({ host, timeouts, changedFiles: [EDITED_FILE], baseline: null });
    if (outcome.passed || (outcome.test?.failed ?? 0) !== 2) throw new Error(`expected 2 failures: ${JSON.stringify(outcome.test)}`);
  };
  await failing(); // remembers the 2 failing tests
  const withFirst: number[] = [];
  const without: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    editOneFile(host.workspaceRoot);
    withFirst.push(await timed(failing));
    editOneFile(host.workspaceRoot);
    process.env.IRONBEES_FAILING_FIRST = '0';
    try {
      without.push(await timed(failing));
    } finally {
      delete process.env.IRONBEES_FAILING_FIRST;
    }
  }
  console.log(
    `time to the failing verdict (medians of ${RUNS}): failing-first ${seconds(median(withFirst))}, whole affected set ${seconds(median(without))}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
