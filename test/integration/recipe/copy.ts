// A temp copy of the repository with only what a recipe's suites need: src/, agents/, the public
// contract, the project files (the panel's too), the named test files and every file of test/ or
// webview-ui/ they import (followed to the end), the calculator fixture; node_modules is a symlink
// to the real one.

import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const REPO = path.resolve(__dirname, '..', '..', '..');

const ALWAYS = [
  'src',
  'agents',
  'docs/contracts.md',
  'package.json',
  'tsconfig.json',
  '.mocharc.json',
  'test/support/mocha-env.cjs',
  'test/support/count-reporter.cjs',
  'test/fixtures/calculator',
  // The panel reads the node table: its project is type-checked too.
  'webview-ui/src',
  'webview-ui/tsconfig.json',
];

const IMPORT = /(?:\bfrom|\bimport|\brequire\()\s*\(?\s*'(\.{1,2}\/[^']+)'/g;
const EXTENSIONS = ['', '.ts', '.tsx', '.cjs', '.json', '/index.ts'];

/** The repository-relative files `file` imports by a relative path, outside src/ (which is copied whole). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(REPO, file), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const base = path.join(path.dirname(path.join(REPO, file)), match[1]);
    const resolved = EXTENSIONS.map((ext) => base + ext).find((candidate) => existsSync(candidate) && !candidate.endsWith(path.sep));
    if (!resolved) continue;
    const relative = path.relative(REPO, resolved).split(path.sep).join('/');
    if (!relative.startsWith('src/') && !relative.startsWith('..')) found.push(relative);
  }
  return found;
}

/** `tests` and everything they import outside src/, transitively. */
export function importClosure(tests: readonly string[]): string[] {
  const seen = new Set<string>();
  const queue = [...tests];
  while (queue.length) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    if (/\.tsx?$/.test(file)) queue.push(...importsOf(file));
  }
  return [...seen].sort();
}

/** Makes the copy; returns its root. */
export async function copyForRecipe(tests: readonly string[]): Promise<string> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-recipe-'));
  for (const item of [...ALWAYS, ...importClosure(tests)]) {
    await fs.cp(path.join(REPO, item), path.join(root, item), {
      recursive: true,
      filter: (source) => !['bin', 'obj'].includes(path.basename(source)),
    });
  }
  await fs.symlink(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  return root;
}
