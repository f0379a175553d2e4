// Libraries the CLI needs only after its start, each in a bundle of its own beside dist/cli-main.js:
// zod (the tools' schemas are made by the warm-up while the baseline's dotnet build runs,
// src/core/lazy-schema.ts) and the model SDKs (loaded by a provider's first call,
// src/core/runtime/model-client.ts). Inside the main bundle their bytecode sat in the one code cache
// that every start reads whole; beside it, each has its own cache, read at its first require
// (src/cli/code-cache.ts). Still one copy of each: every entry of a package the CLI imports ('zod',
// 'zod/v4', the MCP SDK's 'zod/v3' and 'zod/v4-mini') is served by its one bundle, built with one-zod.mjs.

/** The side bundles: dist/<name>.js serves every import of a package `matches`. */
export const SIDE_BUNDLES = [
  { name: 'cli-zod', matches: /^zod(\/.*)?$/ },
  { name: 'cli-anthropic', matches: /^@anthropic-ai\/sdk(\/.*)?$/ },
  { name: 'cli-openai', matches: /^openai(\/.*)?$/ },
];

/** What a bundle requires to reach `name`, relative to itself: Node's own require finds it too (IRONBEES_CODE_CACHE=0). */
export function sideBundleRequest(name) {
  return `./${name}.js`;
}

/**
 * An esbuild plugin: each import or require of a side bundle's package (but `own`'s, for the side
 * bundle `own` itself) becomes a one-line module, `module.exports = require('./<bundle>.js')['<entry>']`
 * (esbuild keeps it lazy like any CommonJS module: run at the importer's first use). The entries met
 * are added to `entries` (bundle name → Set of entries).
 */
export function besideBundles(entries, own = null) {
  const served = SIDE_BUNDLES.filter((bundle) => bundle.name !== own);
  return {
    name: 'beside-bundles',
    setup(builder) {
      builder.onResolve({ filter: /.*/, namespace: 'beside' }, (args) => ({ path: args.path, external: true }));
      builder.onResolve({ filter: new RegExp(served.map((bundle) => bundle.matches.source).join('|')) }, (args) => {
        const bundle = served.find((candidate) => candidate.matches.test(args.path));
        if (!bundle) return undefined;
        if (!entries.has(bundle.name)) entries.set(bundle.name, new Set());
        entries.get(bundle.name).add(args.path);
        return { path: args.path, namespace: 'beside', pluginData: bundle.name };
      });
      builder.onLoad({ filter: /.*/, namespace: 'beside' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(sideBundleRequest(args.pluginData))})[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
}

/** A side bundle's entry: each of its entries the other bundles met, made on its first read. */
export function sideBundleEntry(entries) {
  return [...entries]
    .sort()
    .map((entry) => `Object.defineProperty(exports, ${JSON.stringify(entry)}, { enumerable: true, get: () => require(${JSON.stringify(entry)}) });`)
    .join('\n');
}
