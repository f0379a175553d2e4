// Libraries the CLI needs only after its start, or only in some runs, each in a bundle of its own
// beside dist/cli-main.js: zod (the tools' schemas are made by the warm-up while the baseline's dotnet
// build runs, src/core/lazy-schema.ts), the model SDKs (loaded by a provider's first call,
// src/core/runtime/model-client.ts), MCP (an agent's MCP tool, `ironbees mcp`), OpenTelemetry (an OTLP
// endpoint) and the YAML parser (a workspace's own agent.yaml). Inside the main bundle every start
// read their text, and the one code cache held what a run had compiled of them; beside it, each has
// its own cache, read at its first require (src/cli/code-cache.ts). Still one copy of each: every
// entry of a package the CLI imports ('zod', 'zod/v4', the MCP SDK's 'zod/v3' and 'zod/v4-mini') is
// served by its one bundle, built with one-zod.mjs; what a side bundle imports of another's package
// is served by that one.

/** The side bundles: dist/<name>.js serves every import of a package `matches` (the first that does). */
export const SIDE_BUNDLES = [
  { name: 'cli-zod', matches: /^zod(\/.*)?$/ },
  { name: 'cli-anthropic', matches: /^@anthropic-ai\/sdk(\/.*)?$/ },
  { name: 'cli-openai', matches: /^openai(\/.*)?$/ },
  { name: 'cli-mcp', matches: /^@modelcontextprotocol\/sdk(\/.*)?$/ },
  // The Anthropic SDK imports OpenTelemetry's API (a few KB): apart from the exporter and its SDK.
  { name: 'cli-otel-api', matches: /^@opentelemetry\/api(\/.*)?$/ },
  { name: 'cli-otel', matches: /^@opentelemetry\/[^/]+(\/.*)?$/ },
  { name: 'cli-yaml', matches: /^yaml(\/.*)?$/ },
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
  return {
    name: 'beside-bundles',
    setup(builder) {
      builder.onResolve({ filter: /.*/, namespace: 'beside' }, (args) => ({ path: args.path, external: true }));
      builder.onResolve({ filter: new RegExp(SIDE_BUNDLES.map((bundle) => bundle.matches.source).join('|')) }, (args) => {
        const bundle = SIDE_BUNDLES.find((candidate) => candidate.matches.test(args.path));
        if (!bundle || bundle.name === own) return undefined;
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
