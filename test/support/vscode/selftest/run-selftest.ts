// Proves the VS Code test runner: a throwaway extension's suite passes (exit 0), and the same
// suite with a failing assertion added gives exit 1. Two checks → `N passed, N failed`.
import { join } from 'node:path';
import { repoRoot } from '../paths';
import { runVscodeTests } from '../run-vscode-tests';

const extension = join(__dirname, 'extension');

/** Passes when the exit code AND the suite's own count line are what this case should produce. */
async function check(name: string, fail: boolean, expected: number, expectedCount: string): Promise<boolean> {
  const started = Date.now();
  const lines: string[] = [];
  const code = await runVscodeTests({
    extensionDevelopmentPath: extension,
    extensionTestsPath: join(extension, 'tests', 'index.cjs'),
    workspace: join(repoRoot, 'test', 'fixtures', 'calculator'),
    settings: { 'ironbeesSelftest.marker': 'from-user-settings' },
    env: fail ? { IRONBEES_SELFTEST_FAIL: '1' } : {},
    timeoutMs: 120_000,
    log: (line) => lines.push(line),
  });
  const counted = lines.some((line) => line.trim() === expectedCount);
  const ok = code === expected && counted;
  // The deliberately failing suite's output would read as a real failure: show logs only on a mismatch.
  if (!ok) for (const line of lines) console.log(`    | ${line}`);
  console.log(
    `${ok ? '✔' : '✘'} ${name}: exit ${code} (expected ${expected}), count line "${expectedCount}" ${counted ? 'seen' : 'MISSING'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return ok;
}

async function main(): Promise<void> {
  const results = [
    await check('a passing suite gives exit 0', false, 0, '1 passed, 0 failed'),
    await check('a failing assertion gives exit 1', true, 1, '1 passed, 1 failed'),
  ];
  const passed = results.filter(Boolean).length;
  console.log(`\n${passed} passed, ${results.length - passed} failed`);
  process.exit(passed === results.length ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  console.log('\n0 passed, 1 failed');
  process.exit(1);
});
