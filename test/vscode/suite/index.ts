// The entry VS Code loads in the extension host (extensionTestsPath, bundled by esbuild.mjs into
// dist/test/vscode/index.js): mocha in-process over the bundled suites next to this file, in name
// order (they share one extension instance and one workspace), ending with the plain
// `N passed, N failed` line CI counts.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type MochaType from 'mocha';

type MochaConstructor = new (options: MochaType.MochaOptions) => MochaType;

export function run(): Promise<void> {
  // mocha 12 is an ES module; require() gives its namespace, whose `Mocha` export is the class.
  // It is loaded from the checkout's node_modules at run time, not bundled.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Mocha } = require('mocha') as { Mocha: MochaConstructor };
  const reporter = path.join(__dirname, '..', '..', '..', 'test', 'support', 'count-reporter.cjs');
  const mocha = new Mocha({ ui: 'bdd', timeout: 240_000, color: false, reporter });
  const suites = fs
    .readdirSync(__dirname)
    .filter((name) => name.endsWith('.test.js'))
    .sort();
  const only = process.env.IRONBEES_VSCODE_SUITES?.split(',').filter(Boolean);
  for (const name of suites) {
    if (!only || only.some((wanted) => name.includes(wanted))) mocha.addFile(path.join(__dirname, name));
  }
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
}
