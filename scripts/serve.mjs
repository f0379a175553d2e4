// `npm start`: the main job. Builds and packages the extension, installs the .vsix into code-server
// (VS Code in the browser), copies the bundled sample C# solution to a scratch folder and serves it
// on 127.0.0.1, printing the URL. Open it, then "Ironbees: Run Agent" from the command palette.
// With ANTHROPIC_API_KEY set the agent uses Claude; without, the clearly labelled scripted demo
// model (everything else — tools, edits, dotnet build/test — is real). Runs until Ctrl-C.
//
// Run through tsx (`node --import tsx scripts/serve.mjs`) because it shares the TypeScript helpers
// the browser tests use. PORT picks the port (default 8080, or a free one if that is taken).
//
// code-server is installed for linux-x64 only (scripts/install-code-server.mjs). Elsewhere (Windows,
// macOS) this packages the extension, copies the sample and says how to open both in desktop VS Code.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { linuxOnlySkipReason, npmCommand } from './tool-command.cjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vsix = join(root, 'dist', 'ironbees.vsix');

function step(title, command, args) {
  if (title) console.error(`> ${title}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', windowsHide: true });
  if (result.status !== 0) {
    console.error(`${title ?? args.at(-1)} failed (exit ${result.status}).`);
    process.exit(1);
  }
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function choosePort() {
  if (process.env.PORT) return Number(process.env.PORT);
  return (await portIsFree(8080)) ? 8080 : freePort();
}

function packageExtension() {
  const npm = npmCommand(['run', '--silent', 'package']);
  step('Building and packaging the extension', npm.cmd, npm.args);
  if (!existsSync(vsix)) {
    console.error(`npm run package did not produce ${vsix}.`);
    process.exit(1);
  }
}

/** Windows, macOS, Linux on ARM: the desktop route (no code-server build for them here). */
function desktopRoute(reason) {
  console.error(`> code-server is not started: ${reason}.`);
  packageExtension();
  const workspace = mkdtempSync(join(tmpdir(), 'ironbees-sample-'));
  cpSync(join(root, 'samples', 'calculator'), workspace, { recursive: true });
  console.error('');
  console.error('Open Ironbees in desktop VS Code (1.100 or later):');
  console.error(`  code --install-extension "${vsix}"`);
  console.error(`  code "${workspace}"`);
  console.error('Then F1 → "Ironbees: Run Agent" → "Fix the failing Calculator test"; without ANTHROPIC_API_KEY set the setting');
  console.error('"ironbees.demoModel" to true for the scripted demo model. `npm run demo` runs the same fix in this terminal.');
  process.exit(0);
}

const unsupported = linuxOnlySkipReason();
if (unsupported) desktopRoute(unsupported);

// Loaded only where code-server runs: they start Linux processes.
const { startCodeServer } = await import('../test/support/e2e/code-server.ts');
const { freePort } = await import('../test/support/vscode/processes.ts');

// Says nothing when code-server is installed; while it installs, it prints its own progress lines.
step(null, process.execPath, [join(root, 'scripts', 'install-code-server.mjs')]);
packageExtension();

const demo = !process.env.ANTHROPIC_API_KEY;
const server = await startCodeServer({
  vsixPath: vsix,
  workspace: join(root, 'samples', 'calculator'),
  settings: demo ? { 'ironbees.demoModel': true } : {},
  port: await choosePort(),
  keepScratch: true,
});

console.error('');
console.error(
  demo
    ? 'No ANTHROPIC_API_KEY: the extension uses the scripted demo model (everything else is real).'
    : 'Using Claude with ANTHROPIC_API_KEY from the environment ("Ironbees: Set API Key" stores one in VS Code instead).',
);
console.error(`Sample workspace (a copy; kept after you stop): ${server.workspace}`);
console.error('In the browser: F1 → "Ironbees: Run Agent" → "Fix the failing Calculator test". Ctrl-C stops the server.');
console.log(`\nIronbees in VS Code: ${server.url}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  console.error('\nStopping code-server…');
  await server.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
void server.exited.then(() => {
  if (stopping) return;
  console.error(`code-server stopped on its own; its log is in ${server.scratch}/code-server.log`);
  process.exit(1);
});
// Keep the process alive while code-server (a detached child) serves.
setInterval(() => undefined, 1 << 30);
