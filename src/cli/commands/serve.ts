// `ironbees serve`: the orchestrator behind an HTTP API and a web page (src/serve/), until Ctrl-C.
// The first stdout line says where it listens; the token and the login URL go to stderr only.

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigurationError } from '../../core/errors';
import { checkSandbox, setSandboxMode } from '../../core/platform/sandbox';
import { Sessions, allowedOrigins } from '../../serve/access';
import { createServeApp } from '../../serve/app';
import { ServeMetrics } from '../../serve/metrics';
import { notifierFromEnv, runNotifications } from '../../core/runtime/notify';
import { RunHub } from '../../serve/runs';
import { PanelFeed } from '../../serve/panel';
import { listen } from '../../serve/server';
import { webPage } from '../../serve/web-page';
import type { ServeArgs } from '../args';
import { ExitCode } from '../exit-codes';
import { writeLine } from '../terminal';
import { cliWorkspaceTrust } from '../workspace-trust';
import type { CommandContext } from './context';

/** The side panel's bundle: beside the bundled CLI (dist/webview), or dist/webview when run from the sources. */
function webDir(): string {
  const candidates = [path.join(__dirname, 'webview'), path.join(__dirname, '..', '..', '..', 'dist', 'webview')];
  return candidates.find((dir) => existsSync(path.join(dir, 'main.js'))) ?? candidates[0];
}

/** IRONBEES_SERVE_TOKEN, or a new token in a file only this user can read. */
async function serveToken(ctx: CommandContext): Promise<{ token: string; file?: string }> {
  const fromEnv = ctx.io.env.IRONBEES_SERVE_TOKEN?.trim();
  if (fromEnv) {
    if (fromEnv.length < 16) throw new ConfigurationError('IRONBEES_SERVE_TOKEN must be at least 16 characters.');
    return { token: fromEnv };
  }
  const token = randomBytes(32).toString('base64url');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-serve-'));
  const file = path.join(dir, 'token');
  await fs.writeFile(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  return { token, file };
}

async function realRoots(roots: readonly string[]): Promise<string[]> {
  const real: string[] = [];
  for (const root of roots) {
    const resolved = await fs.realpath(root).catch(() => null);
    if (!resolved || !(await fs.stat(resolved)).isDirectory()) throw new ConfigurationError(`--workspace-root ${root} is not a folder.`);
    real.push(resolved);
  }
  return real;
}

export async function serveCommand(ctx: CommandContext, args: ServeArgs): Promise<number> {
  const roots = await realRoots(args.workspaceRoots);
  setSandboxMode(args.sandbox);
  checkSandbox((message) => ctx.logger.warn(message), ctx.io.env);
  const { token, file } = await serveToken(ctx);
  const notifier = notifierFromEnv(args.notifyWebhook, ctx.io.env, ctx.logger);
  let hub: RunHub | null = null;
  const metrics = new ServeMetrics(() => hub?.activeRuns ?? 0);
  hub = new RunHub({
    roots,
    demo: args.demo,
    logger: ctx.logger,
    metrics,
    ...(notifier ? { onState: runNotifications(notifier) } : {}),
    createHost: (workspace) => ctx.deps.createHost(workspace, ctx.logger),
    createRuntime: async (workspace) => {
      // Nobody answers a question here: only the flag or an earlier "yes" trusts a workspace.
      const trusted = await cliWorkspaceTrust(ctx, { workspace, flag: args.trustWorkspace, mayAsk: false });
      return ctx.deps.createRuntime({
        workspaceRoot: workspace,
        trusted,
        demo: args.demo,
        env: ctx.io.env,
        logger: ctx.logger,
        target: null,
        sandbox: args.sandbox,
      });
    },
  });
  const sessions = new Sessions();
  // The port is known once listening; the app reads the allowed origins when a request comes.
  const origins = new Set<string>();
  const panel = new PanelFeed(hub, roots[0]);
  const app = createServeApp({ token, roots, origins, sessions, hub, metrics, panel, page: webPage(webDir()) });
  const server = await listen(app, args.host, args.port);
  for (const origin of allowedOrigins(args.host, server.port)) origins.add(origin);
  writeLine(ctx.io.stdout, `listening ${server.url}`);
  if (file) writeLine(ctx.io.stderr, `bearer token in ${file}`);
  writeLine(ctx.io.stderr, `web page (this link works once): ${server.url}/login?code=${sessions.newCode()}`);
  if (args.demo) writeLine(ctx.io.stderr, ctx.colors.magenta('DEMO MODE: runs use the scripted demo model.'));

  await new Promise<void>((resolve) => {
    const off = ctx.io.onInterrupt?.(() => {
      off?.();
      resolve();
    });
    if (!ctx.io.onInterrupt) ctx.io.stdin.once('end', () => resolve());
  });
  writeLine(ctx.io.stderr, 'Stopping: live runs stay resumable.');
  await server.close();
  await hub.close();
  await notifier?.settled();
  if (file) await fs.rm(path.dirname(file), { recursive: true, force: true });
  return ExitCode.SUCCESS;
}
