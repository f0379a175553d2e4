// How the extension is bundled, shared by esbuild.mjs (npm run build / npm run package) and the test
// that checks what the packaged extension exports (test/integration/extension-exports.test.ts).
//
// Two files: the light half that activation loads, and the heavy half (src/extension/heavy.ts: the
// core runtime and the zod schemas) that it `import()`s on first use. One minified CommonJS file
// each (`vscode` stays external: the editor provides it), so the .vsix needs no node_modules.
//
// `production` (npm run package) compiles the test hooks out: IRONBEES_TEST_HOOKS is `false`, so
// esbuild drops the code that would export the live services (and with them the key store).

/** A string only the test hooks' code contains; the packaged bundle must not. */
export const TEST_HOOKS_MARKER = '__ironbeesTestHooks';

const loadHeavyHalfLazily = {
  name: 'extension-heavy-half',
  setup(builder) {
    builder.onResolve({ filter: /(^|\/)heavy\.js$/ }, (args) =>
      args.importer.includes('src/extension') ? { path: './extension-heavy.js', external: true } : undefined,
    );
  },
};

/** esbuild options for the extension's two bundles, written to `outdir`. */
export function extensionBuildOptions({ production = false, outdir = 'dist', absWorkingDir } = {}) {
  return {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    logLevel: 'warning',
    entryPoints: { extension: 'src/extension/extension.ts', 'extension-heavy': 'src/extension/heavy.ts' },
    outdir,
    ...(absWorkingDir ? { absWorkingDir } : {}),
    external: ['vscode'],
    minify: true,
    // Crash stacks people send benefit from readable class names.
    keepNames: true,
    define: { IRONBEES_TEST_HOOKS: production ? 'false' : 'true' },
    plugins: [loadHeavyHalfLazily],
  };
}
