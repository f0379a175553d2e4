// `ironbees mcp`: the workspace as an MCP server, over stdio (until the client closes stdin) or over
// Streamable HTTP on 127.0.0.1 with a bearer token (until Ctrl-C). stdout belongs to the protocol in
// stdio mode, so everything else goes to stderr.

import { randomBytes } from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';
import { version } from '../../../package.json';
import type { Orchestrator } from '../../core/trace';
import { createIronbeesMcpServer } from '../../mcp-server/ironbees-server';
import { startHttpMcpServer } from '../../mcp-server/http';
import { closeWorkspaceMcpSources } from '../../core/mcp/workspace-source';
import type { McpArgs } from '../args';
import { checkSandbox, setSandboxMode } from '../../core/platform/sandbox';
import { ExitCode } from '../exit-codes';
import { writeLine } from '../terminal';
import type { CommandContext } from './context';
import { checkWorkspace } from './context';
import { disposeRuntime } from './run';
import type { Runtime } from '../wiring';
import { cliWorkspaceTrust } from '../workspace-trust';

export async function mcpCommand(ctx: CommandContext, args: McpArgs): Promise<number> {
  await checkWorkspace(args.workspace);
  // The build and test tools run in the sandbox too: `on` without one is exit 2 before serving.
  setSandboxMode(args.sandbox);
  checkSandbox((message) => ctx.logger.warn(message), ctx.io.env);
  const host = ctx.deps.createHost(args.workspace, ctx.logger);
  // stdin is the protocol (or nobody's): only the flag or an earlier "yes" trusts the workspace here.
  const trusted = await cliWorkspaceTrust(ctx, { workspace: args.workspace, flag: args.trustWorkspace, mayAsk: false });
  let orchestrator: Promise<Orchestrator> | null = null;
  let existing: Orchestrator | null = null;
  let runtime: Runtime | null = null;
  const options = {
    host,
    version,
    existingOrchestrator: (): Orchestrator | null => existing,
    orchestrator: (): Promise<Orchestrator> => {
      // No askToolApproval: nobody is at a terminal here, so tools with side effects run only in
      // runs started with diffApproval "never".
      orchestrator ??= ctx.deps
        .createRuntime({
          workspaceRoot: args.workspace,
          trusted,
          demo: args.demo,
          env: ctx.io.env,
          logger: ctx.logger,
          sandbox: args.sandbox,
        })
        .then((created) => {
          runtime = created;
          return (existing = created.orchestrator);
        })
        .catch((error: unknown) => {
          orchestrator = null;
          throw error;
        });
      return orchestrator;
    },
  };

  if (!args.http) {
    const server = createIronbeesMcpServer(options);
    const closed = new Promise<void>((resolve) => {
      server.onclose = () => resolve();
      ctx.io.stdin.once('end', () => resolve());
    });
    await server.connect(new StdioServerTransport(ctx.io.stdin as Readable, ctx.io.stdout as Writable));
    await closed;
    await server.close().catch(() => undefined);
    await closeWorkspaceMcpSources();
    if (runtime) await disposeRuntime(ctx, runtime);
    return ExitCode.SUCCESS;
  }

  const fromEnv = ctx.io.env.IRONBEES_MCP_TOKEN?.trim();
  const token = args.token ?? (fromEnv || randomBytes(24).toString('base64url'));
  const running = await startHttpMcpServer({
    port: args.port,
    token,
    logger: ctx.logger,
    createServer: () => createIronbeesMcpServer(options),
  });
  writeLine(ctx.io.stderr, `ironbees MCP server listening on ${running.url}`);
  if (!args.token && !fromEnv) writeLine(ctx.io.stderr, `bearer token: ${token}`);
  await new Promise<void>((resolve) => {
    const off = ctx.io.onInterrupt?.(() => {
      off?.();
      resolve();
    });
    if (!ctx.io.onInterrupt) ctx.io.stdin.once('end', () => resolve());
  });
  await running.close();
  await closeWorkspaceMcpSources();
  if (runtime) await disposeRuntime(ctx, runtime);
  return ExitCode.SUCCESS;
}
