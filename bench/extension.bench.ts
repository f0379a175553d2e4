// Extension figures (issue 3's "Done when"): bundle sizes, the cost of loading the extension's
// bundle (what activation pays before `activate()` runs; `activate()` itself is timed inside a real
// VS Code by test/vscode/suite/01-activation.test.ts), and the extension's side of reviewing a
// 20k-line diff: the core's diff, the hunks, the panel's summary. Run: `npm run build` first, then
// `node --import tsx bench/extension.bench.ts`.

import { readFileSync, statSync } from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { makeFileEdit } from '../src/core/workspace/diff';
import { ReviewModel } from '../src/core/workspace/review-model';

const root = path.join(__dirname, '..');

function size(rel: string): string {
  const abs = path.join(root, rel);
  try {
    const raw = statSync(abs).size;
    const gz = gzipSync(readFileSync(abs)).length;
    return `${rel}: ${(raw / 1024).toFixed(1)} KB (${(gz / 1024).toFixed(1)} KB gzipped)`;
  } catch {
    return `${rel}: missing (run npm run build)`;
  }
}

/** A stand-in for the `vscode` module: loading the bundle only needs its names to exist. */
function stubVscode(): unknown {
  const handler: ProxyHandler<() => void> = { get: (_target, key) => (key === '__esModule' ? false : new Proxy(() => undefined, handler)) };
  return new Proxy(() => undefined, handler);
}

function bundleLoadMs(): number {
  const loader = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
  const original = loader._load;
  loader._load = (request, parent, isMain) => (request === 'vscode' ? stubVscode() : original(request, parent, isMain));
  try {
    const started = performance.now();
    // A plain require, as VS Code's extension host loads `main`.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(path.join(root, 'dist', 'extension.js'));
    return performance.now() - started;
  } finally {
    loader._load = original;
  }
}

function bigDiffMs(lines: number): { diffMs: number; reviewMs: number; hunks: number } {
  const original = Array.from({ length: lines }, (_, i) => `    public int Value${i}() => ${i};`).join('\n') + '\n';
  // A change every 50 lines: many hunks, as a large refactoring would make.
  const proposed = original
    .split('\n')
    .map((line, i) => (i % 50 === 0 && line ? line.replace('=>', '=> 1 +') : line))
    .join('\n');
  let started = performance.now();
  const edit = makeFileEdit('src/Big.cs', original, proposed);
  const diffMs = performance.now() - started;
  started = performance.now();
  const review = new ReviewModel('bench', [edit]);
  review.toFileReviews();
  const reviewMs = performance.now() - started;
  return { diffMs, reviewMs, hunks: review.hunks('src/Big.cs').length };
}

console.log(size('dist/extension.js'));
console.log(size('dist/extension-heavy.js'));
console.log(size('dist/webview/main.js'));
const WEBVIEW_GOAL_KB = 300;
const webviewKb = statSync(path.join(root, 'dist', 'webview', 'main.js')).size / 1024;
console.log(
  `webview bundle (minified) ${webviewKb.toFixed(1)} KB (goal ≤ ${WEBVIEW_GOAL_KB} KB: ${webviewKb <= WEBVIEW_GOAL_KB ? 'meets goal' : 'MISSES goal'})`,
);
console.log(size('dist/webview/main.css'));
console.log(`loading dist/extension.js (module evaluation, before activate): ${bundleLoadMs().toFixed(1)} ms`);
const big = bigDiffMs(20_000);
console.log(
  `20k-line file, 400 changed lines: diff ${big.diffMs.toFixed(0)} ms, review model (${big.hunks} hunks + panel summary) ${big.reviewMs.toFixed(0)} ms`,
);
