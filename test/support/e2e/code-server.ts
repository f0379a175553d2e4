// code-server (the full product UI, as a person would use it) on 127.0.0.1 with a packaged .vsix
// installed into fresh extension and user-data folders, serving a COPY of a workspace. Used by the
// browser end-to-end test and by `npm start`.
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { codeServerCli, ensureCodeServer } from '../vscode/paths';
import { freePort, scratchDirs, startServer } from '../vscode/processes';
import type { ScratchDirs, Started } from '../vscode/processes';
import { writeSettings } from '../vscode/settings';

export interface CodeServerOptions {
  /** The extension to install first (omit to serve plain code-server). */
  readonly vsixPath?: string;
  /** Folder to serve; it is copied, so the test may change the copy freely. */
  readonly workspace: string;
  /** User settings on top of the quiet ones. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Extra environment for code-server and so for the extension host. */
  readonly env?: Readonly<Record<string, string>>;
  /** Port to bind on 127.0.0.1 (default: a free one). */
  readonly port?: number;
  /** Keep the scratch folder after stop() (npm start keeps nothing either way by default). */
  readonly keepScratch?: boolean;
}

export interface RunningCodeServer {
  /** The URL that opens the workspace copy. */
  readonly url: string;
  /** The workspace copy being served. */
  readonly workspace: string;
  /** Scratch root holding the copy, user data, extensions and the server log. */
  readonly scratch: string;
  /** Resolves if code-server exits (after stop(), or on its own). */
  readonly exited: Promise<void>;
  readonly stop: () => Promise<void>;
}

export async function startCodeServer(options: CodeServerOptions): Promise<RunningCodeServer> {
  ensureCodeServer();
  const dirs = scratchDirs('ironbees-code-server');
  try {
    return await start(options, dirs);
  } catch (error) {
    if (!options.keepScratch) dirs.remove();
    throw error;
  }
}

async function start(options: CodeServerOptions, dirs: ScratchDirs): Promise<RunningCodeServer> {
  const workspace = join(dirs.root, basename(resolve(options.workspace)));
  cpSync(options.workspace, workspace, { recursive: true });
  const userDataDir = dirs.make('user-data');
  const extensionsDir = dirs.make('extensions');
  const tmp = dirs.make('tmp');
  writeSettings(join(userDataDir, 'User', 'settings.json'), options.settings);
  // Machine-scoped settings (the iteration limit, the approvals, the base URL) reach the extension host
  // from the machine's settings at its start; from the User file only once the workbench hands them over.
  writeSettings(join(userDataDir, 'Machine', 'settings.json'), options.settings);
  const port = options.port ?? (await freePort());
  // Without --config code-server writes ~/.config/code-server/config.yaml; with it, nothing leaks.
  const config = join(dirs.root, 'config.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const env = { ...process.env, ...options.env, EXTENSIONS_GALLERY: '{}', TMPDIR: tmp };
  const common = ['--config', config, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

  if (options.vsixPath) installExtension(options.vsixPath, common, env);
  const server: Started = startServer(
    process.execPath,
    [
      codeServerCli,
      ...common,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      workspace,
    ],
    env,
    join(dirs.root, 'code-server.log'),
  );
  try {
    await server.waitFor(/HTTP server listening on/, 60_000);
  } catch (error) {
    await server.stop();
    throw error;
  }
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
  return {
    url,
    workspace,
    scratch: dirs.root,
    exited: server.exited,
    stop: async () => {
      await server.stop();
      if (!options.keepScratch) dirs.remove();
    },
  };
}

function installExtension(vsixPath: string, common: readonly string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(process.execPath, [codeServerCli, ...common, '--install-extension', resolve(vsixPath)], {
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) {
    throw new Error(`installing ${vsixPath} into code-server failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
}
