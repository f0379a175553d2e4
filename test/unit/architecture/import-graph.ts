// The import graph of src/ and webview-ui/src/, read with the TypeScript compiler's own pre-parser
// (type-only imports included: a cycle through types is still a cycle in the design).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

export const REPO = path.resolve(__dirname, '../../..');
const ROOTS = ['src', 'webview-ui/src'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((file) => existsSync(file));
}

/** Repo-relative file → the repo-relative files it imports. */
export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const root of ROOTS) {
    for (const file of sourceFiles(path.join(REPO, root))) {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles.map((ref) => resolveImport(file, ref.fileName)).filter((t): t is string => t !== undefined);
      graph.set(path.relative(REPO, file), [...new Set(targets.map((t) => path.relative(REPO, t)))]);
    }
  }
  return graph;
}

/** Every cycle, as the files on it (one entry per strongly connected component bigger than a file). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}
