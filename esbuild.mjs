// Bundles the entry points. The CLI is one CommonJS file with its dependencies inlined, so
// `node dist/cli.js` works from a checkout with no further step.
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
};

await build({
  ...common,
  entryPoints: { cli: 'src/cli/main.ts' },
  outdir: 'dist',
  banner: { js: '#!/usr/bin/env node' },
});
