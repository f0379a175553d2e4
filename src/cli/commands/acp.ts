// `ironbees acp`: Ironbees as an Agent Client Protocol agent on stdio, for editors. stdout carries the
// protocol's messages and nothing else: logs, notices and anything a library prints go to stderr.
// Each workspace gets the CLI's runtime at its first session; it ends when the client closes stdin.

import { Readable, Writable } from 'node:stream';
import { version } from '../../../package.json';
import { DEFAULT_MAX_ITERATIONS, DEFAULT_REVIEW_THRESHOLD } from '../../core/model';
import type { WorkflowContext } from '../../core/model';
import type { Orchestrator } from '../../core/trace';
import { checkSandbox, setSandboxMode } from '../../core/platform/sandbox';
import { errorMessage } from '../../core/errors';
import { createAcpAgent } from '../../acp/agent';
import { hostThroughEditor } from '../../acp/editor-fs';
import type { EditorIo } from '../../acp/editor-fs';
import type { AcpArgs } from '../args';
import { DEFAULT_BUILD_TIMEOUT_SECONDS, DEFAULT_TEST_TIMEOUT_SECONDS } from '../args';
import { ExitCode } from '../exit-codes';
import type { Runtime } from '../wiring';
import { cliWorkspaceTrust } from '../workspace-trust';
import type { CommandContext } from './context';
import { checkWorkspace } from './context';
import { announceDemo, disposeRuntime } from './run';

/** A library's console.log would corrupt the protocol: while serving, the console writes to stderr. */
function consoleToStderr(stderr: NodeJS.WritableStream): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...parts: unknown[]): void => {
    stderr.write(`${parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' ')}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  return () => Object.assign(console, saved);
}

export async function acpCommand(ctx: CommandContext, args: AcpArgs): Promise<number> {
  if (args.workspace) await checkWorkspace(args.workspace);
  setSandboxMode(args.sandbox);
  checkSandbox((message) => ctx.logger.warn(message), ctx.io.env);
  const restoreConsole = consoleToStderr(ctx.io.stderr);
  const runtimes = new Map<string, Promise<Runtime>>();
  const targets = new Map<string, string | undefined>();

  const runtimeFor = (workspaceRoot: string, editor: EditorIo): Promise<Runtime> => {
    let made = runtimes.get(workspaceRoot);
    if (!made) {
      made = (async () => {
        await checkWorkspace(workspaceRoot);
        // stdin is the protocol: only the flag or an earlier "yes" trusts the workspace here.
        const trusted = await cliWorkspaceTrust(ctx, { workspace: workspaceRoot, flag: args.trustWorkspace, mayAsk: false });
        const runtime = await ctx.deps.createRuntime({
          workspaceRoot,
          trusted,
          demo: args.demo,
          env: ctx.io.env,
          logger: ctx.logger,
          target: null,
          ...(args.provider ? { provider: args.provider } : {}),
          ...(args.model ? { model: args.model } : {}),
          sandbox: args.sandbox,
          decorateHost: (host) => hostThroughEditor(host, editor),
        });
        if (args.demo) announceDemo(ctx);
        targets.set(workspaceRoot, runtime.target);
        return runtime;
      })();
      // A failed setup (no key, nothing to build) is told to the client; the next session tries again.
      made.catch((error: unknown) => {
        ctx.logger.error(`${workspaceRoot}: ${errorMessage(error)}`);
        runtimes.delete(workspaceRoot);
      });
      runtimes.set(workspaceRoot, made);
    }
    return made;
  };

  const context = (workspaceRoot: string): WorkflowContext => {
    const target = targets.get(workspaceRoot);
    return {
      workspaceRoot,
      maxIterations: DEFAULT_MAX_ITERATIONS,
      ...(args.model ? { model: args.model } : {}),
      ...(args.provider ? { provider: args.provider } : {}),
      ...(args.demo ? { modelProvider: 'demo' } : args.provider ? { modelProvider: args.provider } : {}),
      approval: { plan: 'always', diffs: 'always' },
      review: { mode: 'required', threshold: DEFAULT_REVIEW_THRESHOLD },
      timeouts: { buildMs: DEFAULT_BUILD_TIMEOUT_SECONDS * 1000, testMs: DEFAULT_TEST_TIMEOUT_SECONDS * 1000 },
      ...(target ? { target } : {}),
      ...(args.sandbox !== 'auto' ? { sandbox: args.sandbox } : {}),
    };
  };

  const acp = await createAcpAgent({
    version,
    logger: ctx.logger,
    workspace: args.workspace ?? null,
    orchestrator: async (workspaceRoot, editor): Promise<Orchestrator> => (await runtimeFor(workspaceRoot, editor)).orchestrator,
    context,
  });
  const { ndJsonStream } = await import('@agentclientprotocol/sdk');
  const stream = ndJsonStream(
    Writable.toWeb(ctx.io.stdout as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(ctx.io.stdin as Readable) as ReadableStream<Uint8Array>,
  );
  const connection = acp.app.connect(stream);
  try {
    await connection.closed;
  } finally {
    acp.close();
    restoreConsole();
    for (const made of runtimes.values()) {
      const runtime = await made.catch(() => null);
      if (runtime) await disposeRuntime(ctx, runtime);
    }
  }
  return ExitCode.SUCCESS;
}
