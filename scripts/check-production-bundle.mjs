// Run by `npm run package` before vsce: the extension bundle that goes into the .vsix must not carry
// the test hooks (they would hand any other extension the live services, the key store among them).
import { readFileSync } from 'node:fs';
import { TEST_HOOKS_MARKER } from './extension-build.mjs';

const bundle = 'dist/extension.js';
if (readFileSync(bundle, 'utf8').includes(TEST_HOOKS_MARKER)) {
  console.error(
    `${bundle} contains the test hooks ("${TEST_HOOKS_MARKER}"): it was not built with \`node esbuild.mjs --production\`. Not packaging it.`,
  );
  process.exit(1);
}
console.log(`${bundle}: a production build (no test hooks).`);
