// Nothing secret leaves the extension (issue 9, item 2): the packaged extension, built exactly as
// `npm run package` builds it, is loaded with a stand-in `vscode` module and activated on a folder;
// what it exports is what every other installed extension can read. The development build (what
// the suites inside VS Code load) is built too, to prove the difference is the build flag.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(__dirname, '..', '..');

interface ExtensionBuild {
  extensionBuildOptions(options: { production: boolean; outdir: string; absWorkingDir: string }): Parameters<typeof build>[0];
  TEST_HOOKS_MARKER: string;
}

/** A `vscode` that answers every property, call and `new` with another stand-in (a Proxy), except what is given. */
function standIn(name: string, given: Record<string, unknown> = {}): unknown {
  const target = function standInFunction(): void {};
  const assigned = new Map<string | symbol, unknown>();
  return new Proxy(target, {
    set(_target, property, value) {
      assigned.set(property, value);
      return true;
    },
    get(_target, property) {
      if (assigned.has(property)) return assigned.get(property);
      if (typeof property === 'string' && property in given) return given[property];
      if (property === 'then') return undefined;
      if (property === Symbol.toPrimitive) return () => `[${name}]`;
      if (property === Symbol.hasInstance) return () => false;
      if (property === Symbol.iterator) return function* empty(): Generator<never> {};
      return standIn(`${name}.${String(property)}`);
    },
    apply: () => standIn(`${name}()`),
    construct: () => standIn(`new ${name}`) as object,
  });
}

/**
 * The `vscode` module: a plain object with every name @types/vscode declares (a bundle copies the
 * module's own keys when it imports `* as vscode`), each a stand-in, except what is given.
 */
function standInVscode(given: Record<string, unknown>): Record<string, unknown> {
  const declarations = readFileSync(path.join(ROOT, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8');
  const names = new Set(
    [...declarations.matchAll(/^\s*export (?:namespace|class|enum|function|const|let) (\w+)/gm)].map((match) => match[1]),
  );
  return Object.fromEntries([...names].map((name) => [name, given[name] ?? standIn(`vscode.${name}`)]));
}

function loadWithStandInVscode(bundle: string, vscode: unknown): { activate(context: unknown): unknown } {
  const loader = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
  const original = loader._load;
  loader._load = function load(request: string, parent: unknown, isMain: boolean): unknown {
    return request === 'vscode' ? vscode : original.call(this, request, parent, isMain);
  };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(bundle) as { activate(context: unknown): unknown };
  } finally {
    loader._load = original;
  }
}

describe('what the packaged extension exports', function () {
  this.timeout(120_000);
  const out = mkdtempSync(path.join(tmpdir(), 'ironbees-exports-'));
  const workspace = mkdtempSync(path.join(tmpdir(), 'ironbees-exports-ws-'));
  let options: ExtensionBuild;

  before(async () => {
    options = (await import(path.join(ROOT, 'scripts', 'extension-build.mjs'))) as ExtensionBuild;
    await build(options.extensionBuildOptions({ production: true, outdir: path.join(out, 'production'), absWorkingDir: ROOT }));
    await build(options.extensionBuildOptions({ production: false, outdir: path.join(out, 'development'), absWorkingDir: ROOT }));
  });

  after(() => {
    rmSync(out, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  it('the production bundle has no test hooks; the development bundle has them', () => {
    assert.equal(readFileSync(path.join(out, 'production', 'extension.js'), 'utf8').includes(options.TEST_HOOKS_MARKER), false);
    assert.equal(readFileSync(path.join(out, 'development', 'extension.js'), 'utf8').includes(options.TEST_HOOKS_MARKER), true);
  });

  it('activated on a folder, it exports exactly { activationMs }: no key, no store, no way to run or revert', () => {
    const folder = { uri: { fsPath: workspace, scheme: 'file', toString: () => `file://${workspace}` }, name: 'ws', index: 0 };
    const vscode = standInVscode({ workspace: standIn('vscode.workspace', { workspaceFolders: [folder], workspaceFile: undefined }) });
    const extension = loadWithStandInVscode(path.join(out, 'production', 'extension.js'), vscode);
    const context = standIn('context', {
      subscriptions: [],
      extensionUri: { fsPath: ROOT, scheme: 'file' },
      extensionPath: ROOT,
      logUri: { fsPath: path.join(out, 'logs'), scheme: 'file' },
    });
    const exported = extension.activate(context) as Record<string, unknown>;
    assert.deepEqual(Object.keys(exported), ['activationMs']);
    assert.equal(typeof exported.activationMs, 'number');
    assert.deepEqual(Object.getOwnPropertySymbols(exported), []);
  });
});
