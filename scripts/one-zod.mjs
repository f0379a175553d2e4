// An esbuild plugin: one copy of zod per bundle. A `require('zod')` (zod loaded on first use on
// purpose: src/core/lazy-schema.ts) resolves by default to zod's CommonJS build while every `import`
// takes its ES build: two copies of zod in one bundle (+0.8 MB for the CLI), and schemas made by one
// unknown to the other. A require of zod resolves as an import would.
export const oneZod = {
  name: 'one-zod',
  setup(builder) {
    builder.onResolve({ filter: /^zod(\/.*)?$/ }, async (args) => {
      if (args.kind !== 'require-call') return undefined;
      const resolved = await builder.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir, importer: args.importer });
      return resolved.errors.length > 0 ? { errors: resolved.errors } : { path: resolved.path };
    });
  },
};
