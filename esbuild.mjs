// Bundles the entry points. The CLI is a CommonJS file with its dependencies inlined (a small starter
// in front of it), so `node dist/cli.js` works from a checkout with no further step. The extension is one minified
// CommonJS file too (scripts/extension-build.mjs). The webview is a browser IIFE with its CSS beside
// it, plus the codicon font. `--production` (npm run package) builds the extension without its test
// hooks; without it (npm run build) the suites inside a real VS Code can reach the live services.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishRoslynEngine } from './scripts/build-roslyn.mjs';
import { extensionBuildOptions } from './scripts/extension-build.mjs';

const require = createRequire(import.meta.url);

/** Checks agents/* with src/core/agents/agent-precheck.ts (the code a run uses): a bad agent.yaml fails the build. */
async function precheckBundledAgents() {
  const checker = await build({
    ...common,
    entryPoints: ['src/core/agents/agent-precheck.ts'],
    write: false,
    sourcemap: false,
    logLevel: 'warning',
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', checker.outputFiles[0].text)(module, module.exports, require);
  return module.exports.precheckAgentFolder(join(dirname(fileURLToPath(import.meta.url)), 'agents'));
}

/** A bundle run from a code cache cannot keep an `import()`: the script loses its dynamic-import callback. */
function refuseDynamicImports(file, result) {
  const kept = Object.values(result.metafile.outputs).flatMap((output) =>
    output.imports.filter((entry) => entry.kind === 'dynamic-import'),
  );
  if (kept.length > 0) throw new Error(`${file} keeps dynamic imports: ${kept.map((entry) => entry.path).join(', ')}`);
}

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
};

// The CLI proper (dist/cli-main.js), then the `ironbees` command itself (dist/cli.js, a few KB), which
// runs it through a V8 code cache named by the main bundle's hash (src/cli/start.ts).
// No real `import()` is left in it (esbuild turns each into a require): a script compiled from a code
// cache loses its dynamic-import callback (node: ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
// Without comments (minifyWhitespace) it is smaller and all ASCII, which the starter reads faster.
await precheckBundledAgents();
const cliMain = await build({
  ...common,
  entryPoints: { 'cli-main': 'src/cli/main.ts' },
  outdir: 'dist',
  supported: { 'dynamic-import': false },
  minifyWhitespace: true,
  metafile: true,
});
refuseDynamicImports('dist/cli-main.js', cliMain);
const bundleHash = (file) => createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 32);
await build({
  ...common,
  entryPoints: { cli: 'src/cli/start.ts' },
  outdir: 'dist',
  banner: { js: '#!/usr/bin/env node' },
  define: { IRONBEES_CLI_MAIN_HASH: JSON.stringify(bundleHash('dist/cli-main.js')) },
});

await build(extensionBuildOptions({ production: process.argv.includes('--production') }));

// The suites that run inside a real extension host: `index.js` (mocha's entry, `run()`) and one
// file per suite, which index.js hands to mocha. They reach the extension through its exported API,
// never by bundling a second copy of it.
if (existsSync('test/vscode/suite/index.ts')) {
  const suites = readdirSync('test/vscode/suite').filter((name) => name.endsWith('.test.ts'));
  await build({
    ...common,
    entryPoints: ['test/vscode/suite/index.ts', ...suites.map((name) => `test/vscode/suite/${name}`)],
    outdir: 'dist/test/vscode',
    external: ['vscode', 'mocha'],
  });
}

const webviewEntry = 'webview-ui/src/main.tsx';
mkdirSync('dist/webview', { recursive: true });
if (existsSync(webviewEntry)) {
  await build({
    entryPoints: { main: webviewEntry },
    outdir: 'dist/webview',
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: ['chrome120'],
    minify: true,
    sourcemap: true,
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    loader: { '.svg': 'dataurl', '.png': 'dataurl' },
    logLevel: 'warning',
  });
} else {
  console.warn(`esbuild: ${webviewEntry} does not exist yet; the side panel bundle was skipped.`);
}

// Codicons look native in the panel; the stylesheet loads its font from beside itself.
const codicons = dirname(require.resolve('@vscode/codicons/dist/codicon.css'));
for (const file of readdirSync(codicons).filter((name) => name === 'codicon.css' || name === 'codicon.ttf')) {
  copyFileSync(join(codicons, file), join('dist/webview', file));
}

// The Roslyn engine (roslyn/): dotnet publish into dist/roslyn/, only when its sources changed.
publishRoslynEngine();
