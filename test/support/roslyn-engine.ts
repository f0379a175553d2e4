// Shared by the suites that use the real Roslyn engine: publishes it (quick when up to date) and
// copies fixtures to temp folders.

import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { locateEngine } from '../../src/core/csharp/engine/locate';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/**
 * Turns the engine on for a suite (test/support/mocha-env.cjs turns it off for all others) and
 * returns what undoes that, for the suite's after().
 */
export function useEngine(): () => void {
  const before = process.env.IRONBEES_ROSLYN;
  process.env.IRONBEES_ROSLYN = '1';
  return () => {
    if (before === undefined) delete process.env.IRONBEES_ROSLYN;
    else process.env.IRONBEES_ROSLYN = before;
  };
}

/** The published engine's dll, publishing it first when roslyn/ changed since. */
export async function ensureEngineBuilt(): Promise<string> {
  const cwd = process.cwd();
  process.chdir(REPO_ROOT);
  try {
    const { publishRoslynEngine } = (await import(path.join(REPO_ROOT, 'scripts', 'build-roslyn.mjs'))) as {
      publishRoslynEngine: () => string;
    };
    publishRoslynEngine();
  } finally {
    process.chdir(cwd);
  }
  const dll = locateEngine();
  if (!dll) throw new Error('the Roslyn engine was not published to dist/roslyn/');
  return dll;
}

export function copyFixtureTo(temps: string[], name: string): string {
  const root = mkdtempSync(path.join(tmpdir(), `ironbees-roslyn-${name}-`));
  temps.push(root);
  cpSync(path.join(REPO_ROOT, 'test', 'fixtures', name), root, {
    recursive: true,
    filter: (source) => !/[\\/](bin|obj|TestResults)$/.test(source),
  });
  return root;
}

export function removeAll(temps: string[]): void {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export const quietLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
