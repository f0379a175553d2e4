// Where one validation's time goes: every child process validate() starts (its arguments, when it starts and
// ends relative to the validation's start, how long), and the time outside them, on the 12-project VSTest
// fixture (bench/support/multi-fixture.ts) or the MTP solution (IRONBEES_PROFILE_FIXTURE=mtp), sandboxed
// where a sandbox is available. Run: node --import tsx bench/validation-profile.bench.ts  (IRONBEES_BENCH_RUNS=N, default 3)

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Host, RunOptions, RunResult } from '../src/core/host';
import { captureBaseline, validate } from '../src/core/dotnet/validator';
import { shutdownBuildServers } from '../src/core/dotnet/dotnet-cli';
import { checkSandbox } from '../src/core/platform/sandbox';
import { createNodeHost } from '../src/host/node/index';
import { growMultiFixture } from './support/multi-fixture';

const RUNS = Number(process.env.IRONBEES_BENCH_RUNS ?? 3);
const MTP = process.env.IRONBEES_PROFILE_FIXTURE === 'mtp';
const EDITED_FILE = MTP ? 'src/Ledger/Account.cs' : 'src/Reporting/Report.cs';
const LIMIT_MS = 600_000;
const quietLogger = { debug: () => undefined, info: () => undefined, warn: console.error, error: console.error };

interface Span {
  args: string;
  startMs: number;
  endMs: number;
}

/** A host whose child processes are timed, each as a span from `origin`. */
function timedHost(host: Host, spans: Span[], origin: { at: number }): Host {
  const run = (command: string, args: readonly string[], options: RunOptions): Promise<RunResult> => {
    const startMs = performance.now() - origin.at;
    return host.process.run(command, args, options).finally(() => {
      const shown = args.map((arg) => arg.replace(host.workspaceRoot, '.')).join(' ');
      spans.push({ args: `${command} ${shown}`.slice(0, 140), startMs, endMs: performance.now() - origin.at });
    });
  };
  return { ...host, process: Object.assign(Object.create(host.process) as Host['process'], { run }) };
}

async function prepare(root: string, host: Host): Promise<void> {
  if (MTP) {
    cpSync(path.join(__dirname, '..', 'test', 'fixtures', 'mtp-ledger'), root, {
      recursive: true,
      filter: (s) => !/[\\/](bin|obj)$/.test(s),
    });
    const account = path.join(root, EDITED_FILE);
    writeFileSync(
      account,
      readFileSync(account, 'utf8').replace(
        '        Balance += amount;\n    }\n\n    public static',
        '        Balance -= amount;\n    }\n\n    public static int Revision => 0;\n\n    public static',
      ),
    );
    return;
  }
  await growMultiFixture(root, async (added) => {
    await host.process.run('dotnet', ['sln', 'Multi.sln', 'add', ...added], { cwd: root, timeoutMs: LIMIT_MS });
  });
  const report = path.join(root, EDITED_FILE);
  writeFileSync(
    report,
    readFileSync(report, 'utf8').replace(
      'public string Title { get; }',
      'public static int Revision => 0;\n\n    public string Title { get; }',
    ),
  );
}

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'ironbees-profile-'));
  const plain = createNodeHost(root, { logger: quietLogger });
  const spans: Span[] = [];
  const origin = { at: performance.now() };
  const host = timedHost(plain, spans, origin);
  try {
    await prepare(root, plain);
    console.log(`fixture: ${MTP ? 'mtp-ledger' : 'multi (12 projects)'}; sandbox: ${checkSandbox().active ? 'on' : 'off'}`);
    const timeouts = { buildMs: LIMIT_MS, testMs: LIMIT_MS };
    const baseline = await captureBaseline({ host, timeouts });
    let revision = 0;
    for (let run = 0; run < RUNS; run += 1) {
      const file = path.join(root, EDITED_FILE);
      revision += 1;
      writeFileSync(file, readFileSync(file, 'utf8').replace(/Revision => \d+;/, `Revision => ${revision};`));
      spans.length = 0;
      origin.at = performance.now();
      const outcome = await validate({ host, timeouts, changedFiles: [EDITED_FILE], baseline: MTP ? null : baseline });
      const totalMs = performance.now() - origin.at;
      console.log(`run ${run + 1}: ${totalMs.toFixed(0)} ms, passed ${outcome.passed}, tests ${outcome.test?.total}`);
      let busyUntil = 0;
      let outside = 0;
      for (const span of [...spans].sort((a, b) => a.startMs - b.startMs)) {
        outside += Math.max(0, span.startMs - busyUntil);
        busyUntil = Math.max(busyUntil, span.endMs);
        console.log(
          `  ${span.startMs.toFixed(0).padStart(5)} → ${span.endMs.toFixed(0).padStart(5)} (${(span.endMs - span.startMs).toFixed(0).padStart(4)} ms) ${span.args}`,
        );
      }
      console.log(`  outside any child: ${(outside + Math.max(0, totalMs - busyUntil)).toFixed(0)} ms`);
    }
  } finally {
    await shutdownBuildServers(plain);
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
