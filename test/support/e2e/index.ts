// One import for the end-to-end tests: `import { startCodeServer, launchBrowser, … } from '../support/e2e'`.
export { startCodeServer } from './code-server';
export type { CodeServerOptions, RunningCodeServer } from './code-server';
export {
  agentWebview,
  answerQuickInput,
  hunkLens,
  readmeShot,
  runCommand,
  screenshotsDir,
  shot,
  statusBarItem,
  waitForWorkbench,
} from './page';
export { packageExtension } from './package-vsix';
export { chromiumArgs, launchBrowser } from '../vscode/browser';
export { repoRoot } from '../vscode/paths';
