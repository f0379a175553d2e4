// Rewrites relative imports after files move (issue 11's re-layout), so code written against the old
// layout can be fixed mechanically: after a merge, run it and every `from '../core/tools/dotnet/build'`
// that no longer resolves points at the file's new home. It is idempotent: an import that resolves
// where it stands is left alone.
//
//   node scripts/dev/rewrite-imports.mjs [map] [--move] [--check]
//
// map     the old -> new list (default scripts/dev/moves.txt). `a.ts -> b.ts` moves a file; a line
//         ending in `/` moves a folder, which also covers files added to it after the list was written.
// --move  first `git mv` every listed file that still sits at its old path.
// --check change nothing; list the imports that do not resolve and exit 1 if there are any.
//
// A file containing the marker `rewrite-imports: skip-file` is left alone.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';

const ROOTS = ['src', 'test', 'bench', 'webview-ui', 'scripts'];
const SKIP = new Set(['node_modules', 'dist', 'fixtures', '.vscode-test']);
const SOURCE = /\.(ts|tsx|mts|mjs)$/;
// from '…', import '…', import('…'), require('…'), export … from '…'
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])(\.{1,2}\/[^'"]*)\2/g;

const args = process.argv.slice(2);
const mapFile = args.find((a) => !a.startsWith('--')) ?? 'scripts/dev/moves.txt';
const repo = process.cwd();
const { files, folders } = readMap(mapFile);

if (args.includes('--move')) moveFiles();
let unresolved = 0;
let rewritten = 0;
for (const file of sourceFiles()) fixFile(file, args.includes('--check'));
console.log(`${rewritten} import(s) rewritten, ${unresolved} unresolved`);
if (unresolved > 0 && args.includes('--check')) process.exit(1);

function readMap(path) {
  const files = new Map();
  const folders = [];
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [from, to] = line.split(/\s*->\s*/);
    if (!from || !to) throw new Error(`bad map line: ${raw}`);
    if (from.endsWith('/')) folders.push([from, to]);
    else files.set(from, to);
  }
  folders.sort((a, b) => b[0].length - a[0].length);
  return { files, folders };
}

/** Where a repo-relative path lives after the moves. */
function moved(path) {
  if (files.has(path)) return files.get(path);
  const folder = folders.find(([from]) => path.startsWith(from));
  return folder ? folder[1] + path.slice(folder[0].length) : path;
}

/** Where a file that now sits at `path` lived before the moves (files added later: their folder's old home). */
function original(path) {
  for (const [from, to] of files) if (to === path) return from;
  const folder = folders.find(([, to]) => path.startsWith(to));
  return folder ? folder[0] + path.slice(folder[1].length) : path;
}

function moveFiles() {
  for (const [from, to] of files) {
    if (!existsSync(join(repo, from))) continue;
    execFileSync('mkdir', ['-p', dirname(join(repo, to))]);
    execFileSync('git', ['mv', from, to], { cwd: repo });
  }
}

function* sourceFiles() {
  for (const root of ROOTS) if (existsSync(join(repo, root))) yield* walk(root);
}

function* walk(dir) {
  for (const name of readdirSync(join(repo, dir))) {
    if (SKIP.has(name)) continue;
    const path = posix.join(dir, name);
    const stat = statSync(join(repo, path), { throwIfNoEntry: false });
    if (!stat) continue;
    if (stat.isDirectory()) yield* walk(path);
    else if (SOURCE.test(name)) yield path;
  }
}

/** The existing file a specifier names from a folder, trying the extensions TypeScript would. */
function candidates(fromDir, specifier) {
  const base = posix.normalize(posix.join(fromDir, specifier.replace(/\.js$/, '')));
  return [base + '.ts', base + '.tsx', base, base + '.mjs', base + '/index.ts'];
}

function exists(path) {
  const stat = statSync(join(repo, path), { throwIfNoEntry: false });
  return stat !== undefined && stat.isFile();
}

function fixFile(file, checkOnly) {
  const text = readFileSync(join(repo, file), 'utf8');
  // Files whose strings quote imports on purpose (the lint test's snippets) opt out.
  if (text.includes('rewrite-imports: skip-file')) return;
  const here = posix.dirname(file);
  const before = posix.dirname(original(file));
  let changed = false;
  // Comments that quote an import (like this file's own header) are left as they are.
  const next = text
    .split('\n')
    .map((line) => (/^\s*(\/\/|\*|\/\*)/.test(line) ? line : fixLine(line)))
    .join('\n');
  if (changed && !checkOnly) writeFileSync(join(repo, file), next);

  function fixLine(line) {
    return line.replace(SPECIFIER, (whole, lead, quote, specifier) => {
      if (candidates(here, specifier).some(exists)) return whole;
      const target = [...candidates(before, specifier), ...candidates(here, specifier)].map(moved).find(exists);
      if (!target) {
        unresolved += 1;
        console.error(`${file}: cannot resolve ${specifier}`);
        return whole;
      }
      changed = true;
      rewritten += 1;
      return lead + quote + specifierFor(here, target, specifier) + quote;
    });
  }
}

function specifierFor(fromDir, target, oldSpecifier) {
  let path = relative(fromDir, target).split('\\').join('/');
  if (path.endsWith('/index.ts') && !oldSpecifier.endsWith('index')) path = path.slice(0, -'/index.ts'.length);
  else path = path.replace(/\.(ts|tsx)$/, oldSpecifier.endsWith('.js') ? '.js' : '');
  return path.startsWith('.') ? path : './' + path;
}
