// The CLI's zod in a bundle of its own beside the main one (dist/cli-zod.js). A start does not need
// zod — the tools' schemas are made by the warm-up while the baseline's dotnet build runs
// (src/core/lazy-schema.ts) — yet inside dist/cli-main.js its bytecode sat in the one code cache that
// every start reads whole. Beside it, it has its own cache, read at its first require
// (src/cli/code-cache.ts). Still one zod: every zod entry the CLI imports ('zod', 'zod/v4', the MCP
// SDK's 'zod/v3' and 'zod/v4-mini') is served by that one bundle, built with one-zod.mjs.

/** The file the main bundle requires, relative to it: Node's own require finds it too (IRONBEES_CODE_CACHE=0). */
export const ZOD_BUNDLE_REQUEST = './cli-zod.js';

/**
 * An esbuild plugin for the main bundle: each import or require of a zod entry becomes a one-line
 * module, `module.exports = require('./cli-zod.js')['<entry>']` (esbuild keeps it lazy like any
 * CommonJS module: run at the importer's first use); the entries met are added to `entries`.
 */
export function zodBeside(entries) {
  return {
    name: 'zod-beside',
    setup(builder) {
      builder.onResolve({ filter: /^zod(\/.*)?$/ }, (args) => {
        if (args.namespace === 'zod-beside') return undefined;
        entries.add(args.path);
        return { path: args.path, namespace: 'zod-beside' };
      });
      builder.onResolve({ filter: /^\.\/cli-zod\.js$/, namespace: 'zod-beside' }, () => ({ path: ZOD_BUNDLE_REQUEST, external: true }));
      builder.onLoad({ filter: /.*/, namespace: 'zod-beside' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(ZOD_BUNDLE_REQUEST)})[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
}

/** The side bundle's entry: each zod entry the main bundle met, made on its first read (v3 and mini only for MCP). */
export function zodBundleEntry(entries) {
  return [...entries]
    .sort()
    .map((entry) => `Object.defineProperty(exports, ${JSON.stringify(entry)}, { enumerable: true, get: () => require(${JSON.stringify(entry)}) });`)
    .join('\n');
}
