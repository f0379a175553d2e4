// Runs the real bundled CLI (`node dist/cli.js`) as a child process against a workspace copied from
// a fixture, with the real Anthropic SDK pointed at a local fake Messages API.

import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

/** Builds dist/cli.js when a suite runs on its own (npm test builds first). */
export function ensureCliBuilt(): void {
  if (existsSync(CLI)) return;
  const result = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('esbuild failed');
}

/** Polls `condition` every `stepMs` until it holds (true) or `ms` pass (false). */
export async function until(condition: () => boolean, ms: number, stepMs = 250): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
  return true;
}

export function copyFixture(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `ironbees-cli-${name}-`));
  cpSync(path.join(REPO_ROOT, 'test', 'fixtures', name), dir, {
    recursive: true,
    filter: (src) => !/[\\/](bin|obj|TestResults)([\\/]|$)/.test(src),
  });
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON lines (only meaningful with --json). */
  states: Array<Record<string, unknown> & { currentNode: string; stateId: string; iterationCount: number }>;
}

export interface CliRun {
  child: ChildProcess;
  done: Promise<CliResult>;
  /** Resolves with the first JSON state whose currentNode is `node`. */
  waitForNode(node: string): Promise<void>;
}

export function startCli(args: readonly string[], env: Record<string, string | undefined>, stdin = ''): CliRun {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env } as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ node: string; resolve: () => void }> = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const w of [...waiters]) {
      if (stdout.includes(`"currentNode":"${w.node}"`)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin?.end(stdin);
  const done = new Promise<CliResult>((resolve) => {
    child.on('close', (code) => {
      const states = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as CliResult['states'][number]);
      resolve({ code, stdout, stderr, states });
    });
  });
  const waitForNode = (node: string): Promise<void> =>
    stdout.includes(`"currentNode":"${node}"`) ? Promise.resolve() : new Promise((resolve) => waiters.push({ node, resolve }));
  return { child, done, waitForNode };
}

export function runCli(args: readonly string[], env: Record<string, string | undefined>, stdin = ''): Promise<CliResult> {
  return startCli(args, env, stdin).done;
}

export function readRunFile(workspace: string, runId: string, name: string): string {
  return readFileSync(path.join(workspace, '.ironbees', 'runs', runId, name), 'utf8');
}

export function traceEvents(workspace: string, runId: string): Array<Record<string, unknown> & { kind: string }> {
  return readRunFile(workspace, runId, 'events.jsonl')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown> & { kind: string });
}
