// Runs mocha suites inside a REAL VS Code extension host (Node), the way VS Code's own smoke
// tests do it in the browser: VS Code's server (from code-server) on 127.0.0.1, chromium as the
// workbench client, and the extension under development + the test entry passed in the URL's
// `payload`. The test entry's `run()` result comes back through `codeAutomationExit`, its console
// output through `codeAutomationLog`. Everything is killed at the end or after the time limit.
//
// `node --import tsx test/support/vscode/run-vscode-tests.ts` runs the extension's suites
// (dist/test/vscode/index.js) on a copy of test/fixtures/calculator with the scripted demo model.
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { format } from 'node:util';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser';
import { ensureCodeServer, repoRoot, vscodeServerMain } from './paths';
import { freePort, scratchDirs, startServer } from './processes';
import { writeSettings } from './settings';

export interface VscodeTestOptions {
  /** Folder holding the extension's package.json. */
  readonly extensionDevelopmentPath: string;
  /** A CommonJS file exporting `run(): Promise<void>` (rejecting, or throwing, fails the run). */
  readonly extensionTestsPath: string;
  /** The folder to open; copied first so tests can change it freely. */
  readonly workspace: string;
  /** Extra user settings on top of the quiet ones. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Extra environment for the server and so for the extension host (e.g. a fake API's base URL). */
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  /** Receives every line the tests log (default: stdout). */
  readonly log?: (line: string) => void;
}

/** Workbench chatter (connection set-up, the disabled gallery, the missing service worker): not test output. */
const NOISE = [
  /^Ignoring fetching additional builtin extensions/,
  /^Updating additional builtin extensions cache/,
  /^(Resolving|Resolved) connection token/,
  /^Creating a socket \(renderer-/,
  /^\[Service Worker\] registration/,
  /^ChatSessionStore: /,
];

const DEFAULT_TIMEOUT_MS = Number(process.env.IRONBEES_VSCODE_TEST_TIMEOUT_MS ?? 5 * 60_000);

/** Resolves with the test run's exit code: 0 when `run()` resolved, non-zero otherwise (2 on timeout). */
export async function runVscodeTests(options: VscodeTestOptions): Promise<number> {
  ensureCodeServer();
  const log = options.log ?? ((line: string): void => void process.stdout.write(`${line}\n`));
  const dirs = scratchDirs('ironbees-vscode-test');
  const workspace = join(dirs.root, 'workspace');
  cpSync(options.workspace, workspace, { recursive: true });
  const userDataDir = dirs.make('user-data');
  // VS Code's server reads "Remote" (machine) settings from <user-data-dir>/Machine/settings.json;
  // they apply to everything the extension host reads.
  writeSettings(join(userDataDir, 'Machine', 'settings.json'), options.settings);
  const tmp = dirs.make('tmp');
  mkdirSync(tmp, { recursive: true });

  const port = await freePort();
  const server = startServer(
    process.execPath,
    [
      vscodeServerMain,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--without-connection-token',
      '--accept-server-license-terms',
      '--enable-smoke-test-driver',
      '--disable-workspace-trust',
      '--disable-telemetry',
      '--user-data-dir',
      userDataDir,
      '--server-data-dir',
      dirs.make('server-data'),
      '--extensions-dir',
      dirs.make('extensions'),
      // The C# engine is off unless a suite turns it on (as mocha-env.cjs does for mocha): without a
      // C# extension every demo run would load the solution, which costs tens of seconds here.
    ],
    { IRONBEES_ROSLYN: '0', ...process.env, ...options.env, EXTENSIONS_GALLERY: '{}', TMPDIR: tmp, VSCODE_TEST: '1' },
    join(dirs.root, 'server.log'),
  );

  let browser: Browser | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    await server.waitFor(/Extension host agent listening on|Web UI available at|Server bound to/, 60_000);
    browser = await launchBrowser();
    const page = await browser.newPage();
    // A limit on silence, not on the whole run: every line the tests print re-arms it, so a longer
    // suite or a busier machine is not a failure, and a hung test still is.
    let arm = (): void => undefined;
    const exitCode = new Promise<number>((done) => {
      void page.exposeFunction('codeAutomationExit', (code: number) => done(code));
      arm = (): void => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          log(`vscode tests: no output for ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms; stopping everything`);
          done(2);
        }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      };
      arm();
    });
    await page.exposeFunction('codeAutomationLog', (_level: string, message: unknown) => {
      arm();
      // The extension host forwards console calls as their argument list (printf style, as mocha uses).
      const text = Array.isArray(message) ? format(...(message as unknown[])) : String(message);
      if (NOISE.some((pattern) => pattern.test(text))) return;
      for (const line of text.split('\n')) log(line);
    });
    page.on('pageerror', (error) => log(`[workbench page error] ${error.message}`));
    await page.goto(workbenchUrl(port, workspace, options), { waitUntil: 'domcontentloaded', timeout: 60_000 });
    const code = await exitCode;
    if (code !== 0) {
      // Prefixed, so a count line the extension host echoed there is not mistaken for the suite's own.
      log(`vscode tests: exit code ${code}; server log (tail):`);
      for (const line of server.output().slice(-3000).split('\n')) log(`[server] ${line}`);
    }
    return code;
  } finally {
    clearTimeout(timer);
    await browser?.close().catch(() => undefined);
    await server.stop();
    dirs.remove();
  }
}

function workbenchUrl(port: number, workspace: string, options: VscodeTestOptions): string {
  const remote = (path: string): string => `vscode-remote://127.0.0.1:${port}${resolve(path)}`;
  const payload = [
    ['extensionDevelopmentPath', remote(options.extensionDevelopmentPath)],
    ['extensionTestsPath', remote(options.extensionTestsPath)],
  ];
  const query = new URLSearchParams({ folder: workspace, payload: JSON.stringify(payload) });
  return `http://127.0.0.1:${port}/?${query.toString()}`;
}

async function main(): Promise<void> {
  const testsPath = join(repoRoot, 'dist', 'test', 'vscode', 'index.js');
  if (!existsSync(testsPath)) {
    console.log(`${testsPath} is missing: run \`npm run build\` first (the extension's esbuild bundles the suites).`);
    process.exit(1);
  }
  const code = await runVscodeTests({
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: testsPath,
    workspace: join(repoRoot, 'test', 'fixtures', 'calculator'),
    settings: { 'ironbees.demoModel': true },
  });
  process.exit(code);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.stack : String(error));
    process.exit(1);
  });
}
