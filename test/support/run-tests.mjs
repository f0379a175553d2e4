// `npm test`: the README's test command. Runs the checks (build, typecheck, lint), then each test
// stage, echoes everything it prints, reads each stage's last `N passed, N failed` line and ends
// with ONE total line of the same shape as the very last line, so CI can count. Exit 1 when any
// step fails or a test stage prints no count (a stage that silently ran nothing is not green).
//
// Stages that need VS Code (the suites inside a real extension host, the browser end-to-end test)
// run only when enabled: a suite that cannot pass yet must not turn `npm test` red. Enable them
// here once they exist, or choose for one run: IRONBEES_TEST_STAGES=mocha,vscode,e2e npm test.
// They run code-server in chromium, set up with apt-get: linux-x64 only; elsewhere they are skipped
// and the run says why. Every tool starts as this Node with its script (scripts/tool-command.cjs),
// so no step needs a shell or a `.cmd` shim on Windows.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binCommand, linuxOnlySkipReason, npmCommand } from '../../scripts/tool-command.cjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// IRONBEES_NUGET_SOURCE (a feed for an offline machine or a CI mirror) also reaches the tests' own
// `dotnet` commands, as it reaches the ones Ironbees starts (src/core/dotnet/package-sources.ts).
if (process.env.IRONBEES_NUGET_SOURCE) {
  const added = [process.env.RestoreAdditionalProjectSources, process.env.IRONBEES_NUGET_SOURCE].filter(Boolean).join(';');
  process.env.RestoreAdditionalProjectSources = added;
}
const node = process.execPath;
// On a fresh machine `npm test` gets its own prerequisites: the Debian packages (installed as root, else
// one line says what to run), then code-server. The same script `.ci/run` calls.
const systemPackages = { name: 'system packages', cmd: node, args: ['scripts/ensure-system-packages.mjs'] };
const installCodeServer = { name: 'install code-server', cmd: node, args: ['scripts/install-code-server.mjs'] };

/** Steps without a test count: they pass or fail as a whole, and a failure stops the run. Each step
 * and stage has a time limit (`timeoutMs`, default 20 min) after which it is stopped and fails. */
const CHECKS = [
  { name: 'build', ...npmCommand(['run', '--silent', 'build']) },
  { name: 'typecheck', ...binCommand('typescript', ['-p', '.', '--noEmit'], 'tsc') },
  { name: 'typecheck webview', ...binCommand('typescript', ['-p', 'webview-ui', '--noEmit'], 'tsc') },
  { name: 'lint', ...binCommand('eslint', ['src', 'test', 'webview-ui']) },
  { name: 'format', ...binCommand('prettier', ['--check', '.']) },
];

/** Test stages; each must print `N passed, N failed`. `needs` runs first (e.g. the installer). */
const STAGES = [
  {
    name: 'mocha',
    enabled: true,
    ...binCommand('mocha', ['--timeout', '300000', 'test/unit/**/*.test.ts', 'test/integration/**/*.test.ts']),
    timeoutMs: 60 * 60_000,
  },
  {
    // Proves the VS Code runner itself with a throwaway extension: a passing suite gives exit 0, a
    // failing assertion exit 1 (~25 s). Catches a broken code-server/chromium set-up early.
    name: 'vscode-selftest',
    enabled: true,
    linuxOnly: true,
    needs: [systemPackages, installCodeServer],
    cmd: node,
    args: ['--import', 'tsx', 'test/support/vscode/selftest/run-selftest.ts'],
    timeoutMs: 10 * 60_000,
  },
  {
    // Proves the browser helpers: code-server with a packaged .vsix, chromium, the palette (~25 s).
    name: 'e2e-smoke',
    enabled: true,
    linuxOnly: true,
    needs: [systemPackages, installCodeServer],
    ...binCommand('mocha', ['--timeout', '240000', 'test/support/e2e/selftest/**/*.test.ts']),
    timeoutMs: 10 * 60_000,
  },
  {
    // The extension's suites inside a real extension host (ext bundles dist/test/vscode/index.js).
    name: 'vscode',
    enabled: true,
    linuxOnly: true,
    needs: [systemPackages, installCodeServer],
    cmd: node,
    args: ['--import', 'tsx', 'test/support/vscode/run-vscode-tests.ts'],
    timeoutMs: 30 * 60_000,
  },
  {
    // The product end to end in a browser: code-server with the packaged .vsix (npm run package).
    name: 'e2e',
    enabled: true,
    linuxOnly: true,
    needs: [systemPackages, installCodeServer, { name: 'package', ...npmCommand(['run', '--silent', 'package']) }],
    ...binCommand('mocha', ['--timeout', '600000', 'test/e2e/**/*.test.ts']),
    timeoutMs: 30 * 60_000,
  },
];

const COUNT_LINE = /^(\d+) passed, (\d+) failed/;

let current; // the running child, so Ctrl-C and time limits can stop its whole process group

/** Runs one command, echoing its output, and resolves with its exit code and last count line. */
function run(step) {
  return new Promise((resolve) => {
    console.log(`\n=== ${step.name}: ${[step.cmd, ...step.args].join(' ')}`);
    // Its own process group (POSIX): a stage that overruns is stopped with everything it started.
    const child = spawn(step.cmd, step.args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: process.env,
      detached: !windows,
      windowsHide: true,
    });
    current = child;
    const limitMs = step.timeoutMs ?? 20 * 60_000;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      console.log(`\n${step.name}: still running after ${limitMs / 60_000} min; stopping it`);
      killGroup(child, 'SIGTERM');
      setTimeout(() => killGroup(child, 'SIGKILL'), 5000).unref();
    }, limitMs);
    let pending = '';
    let count;
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) count = parseCount(line) ?? count;
    });
    child.on('error', (error) => {
      console.log(`${step.name}: could not start: ${error.message}`);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      current = undefined;
      count = parseCount(pending) ?? count;
      resolve({ code: timedOut ? 124 : (code ?? (signal ? 1 : 0)), count });
    });
  });
}

const windows = process.platform === 'win32';

/** Stops the child and everything it started: its process group on POSIX, its process tree on Windows. */
function killGroup(child, signal) {
  if (windows) {
    if (child.pid !== undefined) spawnSync('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    return;
  }
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (current) killGroup(current, 'SIGKILL');
    process.exit(130);
  });
}

function parseCount(line) {
  const match = COUNT_LINE.exec(line.trim());
  return match ? { passed: Number(match[1]), failed: Number(match[2]) } : undefined;
}

function selectedStages() {
  const wanted = process.env.IRONBEES_TEST_STAGES;
  if (!wanted) return STAGES.filter((stage) => stage.enabled);
  const names = wanted
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !STAGES.some((stage) => stage.name === name));
  if (unknown.length > 0) {
    console.error(`IRONBEES_TEST_STAGES: unknown stage(s) ${unknown.join(', ')}; known: ${STAGES.map((s) => s.name).join(', ')}`);
    process.exit(2);
  }
  return STAGES.filter((stage) => names.includes(stage.name));
}

async function main() {
  const stages = selectedStages();
  const totals = { passed: 0, failed: 0 };
  const problems = [];

  for (const check of CHECKS) {
    const { code } = await run(check);
    if (code !== 0) {
      // Nothing after a broken build or typecheck means anything; stop and say why.
      problems.push(`${check.name} failed (exit ${code})`);
      return finish(totals, problems);
    }
  }
  for (const stage of stages) {
    const unsupported = stage.linuxOnly ? linuxOnlySkipReason() : null;
    if (unsupported) {
      console.log(
        `\n=== ${stage.name}: skipped: ${unsupported}. The VS Code route on this OS is in README.md ("Set-up on a fresh machine").`,
      );
      continue;
    }
    const setup = await runAll(stage.needs ?? []);
    if (setup) {
      problems.push(`${stage.name}: ${setup}`);
      continue;
    }
    const started = Date.now();
    const { code, count } = await run(stage);
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    if (count) {
      totals.passed += count.passed;
      totals.failed += count.failed;
    }
    if (!count) problems.push(`${stage.name} printed no "N passed, N failed" line (exit ${code})`);
    else if (code !== 0 || count.failed > 0)
      problems.push(`${stage.name} exited ${code} (${count.passed} passed, ${count.failed} failed, ${seconds} s)`);
    else console.log(`=== ${stage.name}: ${count.passed} passed, ${count.failed} failed in ${seconds} s`);
  }
  const skipped = STAGES.filter((stage) => !stages.includes(stage)).map((stage) => stage.name);
  if (skipped.length > 0)
    console.log(`\nStages not run: ${skipped.join(', ')} (enable them in test/support/run-tests.mjs, or set IRONBEES_TEST_STAGES).`);
  return finish(totals, problems);
}

async function runAll(steps) {
  for (const step of steps) {
    const { code } = await run(step);
    if (code !== 0) return `${step.name} failed (exit ${code})`;
  }
  return undefined;
}

function finish(totals, problems) {
  for (const problem of problems) console.log(`FAILED: ${problem}`);
  // A broken step that printed no count still counts as one failure, so the total line can never
  // read as green when the run was not.
  const uncounted = problems.length > 0 && totals.failed === 0 ? 1 : 0;
  console.log(`\n${totals.passed} passed, ${totals.failed + uncounted} failed`);
  process.exit(problems.length > 0 ? 1 : 0);
}

await main();
