// A build that hangs and a test host that crashes, through the real validator and the real Node
// process runner, with a stand-in `dotnet` first on PATH (fake-dotnet.sh): the hang is stopped at
// the build time limit with its process gone, the crash is a failed test run that says so.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { captureBaseline } from '../../../src/core/dotnet/validator';
import { sandboxMode, setSandboxMode } from '../../../src/core/platform/sandbox';
import type { Baseline } from '../../../src/core/model';
import { createNodeHost } from '../../../src/host/node/index';
import { copyFixture } from '../../support/cli-harness';
import { workspaceBytes } from '../../support/fault-matrix/ledger';
import type { FaultRow, RowOutcome } from './matrix';

const QUIET = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** Captures the calculator's baseline with the stand-in dotnet in `mode`; the pids it ran under. */
async function baselineWith(mode: 'hang' | 'crash'): Promise<{ baseline: Baseline; pids: number[]; outcome: RowOutcome['workspace'] }> {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-fake-dotnet-'));
  const log = path.join(bin, 'calls.log');
  fs.copyFileSync(path.join(__dirname, '..', '..', 'support', 'fault-matrix', 'fake-dotnet.sh'), path.join(bin, 'dotnet'));
  fs.chmodSync(path.join(bin, 'dotnet'), 0o755);
  const dir = copyFixture('calculator');
  const before = workspaceBytes(dir);
  const saved = { PATH: process.env.PATH, FAKE_DOTNET_MODE: process.env.FAKE_DOTNET_MODE, FAKE_DOTNET_LOG: process.env.FAKE_DOTNET_LOG };
  Object.assign(process.env, { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, FAKE_DOTNET_MODE: mode, FAKE_DOTNET_LOG: log });
  // The fake dotnet logs the pids it started beside itself: outside the workspace, where a sandboxed child cannot write.
  const sandbox = sandboxMode();
  setSandboxMode('off');
  try {
    const baseline = await captureBaseline({ host: createNodeHost(dir, { logger: QUIET }), timeouts: { buildMs: 1_500, testMs: 1_500 } });
    const pids = fs
      .readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => Number(line.split(' ')[0]));
    return { baseline, pids, outcome: { dir, before, changes: {} } };
  } finally {
    setSandboxMode(sandbox);
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    fs.rmSync(bin, { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export const dotnetRows: FaultRow[] =
  process.platform === 'win32'
    ? []
    : [
        {
          id: 'B1',
          fault: 'a build that never returns',
          injectedAt: 'baseline build (dotnet build hangs)',
          expectedEnd: 'build TIMEOUT after 1.5 s, process gone, no tests run',
          run: async () => {
            const { baseline, pids, outcome } = await baselineWith('hang');
            assert.equal(
              baseline.build.errors[0]?.message.startsWith('The build did not finish within 2 s and was stopped with all its processes.'),
              true,
              baseline.build.errors[0]?.message,
            );
            assert.deepEqual(pids.filter(alive), [], 'the hung build was killed');
            const end =
              baseline.build.timedOut && baseline.build.errors[0]?.code === 'TIMEOUT' && baseline.test === null
                ? 'build TIMEOUT after 1.5 s, process gone, no tests run'
                : JSON.stringify(baseline.build);
            return { end, workspace: outcome };
          },
        },
        {
          id: 'B2',
          fault: 'a test host that crashes (SIGABRT)',
          injectedAt: 'baseline test run',
          expectedEnd:
            'test run failed: dotnet test was killed by a signal (the test host crashed) and wrote no results; see the output tail.',
          run: async () => {
            const { baseline, outcome } = await baselineWith('crash');
            assert.equal(baseline.build.success, true);
            assert.equal(baseline.test?.outputTail, 'Starting test execution, please wait...\n');
            const failures = baseline.test?.failures ?? [];
            assert.deepEqual(
              failures.map((f) => f.testName),
              ['[test run] Calculator.Tests'],
            );
            return { end: `test run failed: ${failures[0]?.message}`, workspace: outcome };
          },
        },
      ];
