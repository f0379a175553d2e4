// Ironbees as an Agent Client Protocol (v1) agent: the handlers of initialize, session/new,
// session/load, session/prompt and session/cancel, on the SDK's fluent `agent()` app. The runtime
// (model, dotnet, tools, agents) is the CLI's, made by the face that connects this app.

import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { AgentApp, AgentContext, ContentBlock, SessionUpdate } from '@agentclientprotocol/sdk' with { 'resolution-mode': 'import' };
import type { Logger } from '../core/host';
import type { WorkflowContext } from '../core/model';
import { TERMINAL_NODES } from '../core/model';
import type { Orchestrator } from '../core/trace';
import { errorMessage } from '../core/errors';
import { resolveToolingPath } from '../core/workspace/paths';
import { EditorWrites } from './editor-fs';
import type { EditorIo } from './editor-fs';
import { EditorReads } from './editor-reads';
import { AcpSession } from './session';
import { planUpdate, text } from './updates';

export interface AcpAgentDeps {
  version: string;
  logger: Logger;
  /** The workspace every session works in; null: each session works in its own cwd. */
  workspace: string | null;
  /** The orchestrator of a workspace's runtime (made at its first session), reading and writing through `editor`. */
  orchestrator(workspaceRoot: string, editor: EditorIo): Promise<Orchestrator>;
  /** The context of a run a prompt starts in that workspace. */
  context(workspaceRoot: string): WorkflowContext;
}

/** A session id is a file name under .ironbees/acp-sessions: nothing a client sends may climb out. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,120}$/;

/** Where a session's run is recorded; throws when a folder on the way is a link or leads outside the workspace. */
function sessionFile(workspaceRoot: string, sessionId: string): string {
  return resolveToolingPath(workspaceRoot, `.ironbees/acp-sessions/${sessionId}.json`);
}

/** The run a session file names ('' when it names none: such a run is not found). */
function recordedRun(text: string): string {
  try {
    const runId = (JSON.parse(text) as { runId?: unknown } | null)?.runId;
    return typeof runId === 'string' ? runId : '';
  } catch {
    return '';
  }
}

/** The words of a prompt: its text blocks and the text of resources embedded in it. */
export function promptWords(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'resource' && 'text' in block.resource) parts.push(`${block.resource.uri}:\n${block.resource.text}`);
    else if (block.type === 'resource_link') parts.push(block.uri);
  }
  return parts.join('\n').trim();
}

export async function createAcpAgent(deps: AcpAgentDeps): Promise<{ app: AgentApp; close(): void }> {
  // An ES module: loaded here, with `ironbees acp`, not with every command.
  const { PROTOCOL_VERSION, RequestError, agent } = await import('@agentclientprotocol/sdk');
  const sessions = new Map<string, AcpSession>();
  const writes = new EditorWrites();
  const reads = new EditorReads(deps.logger);
  let client: AgentContext | null = null;

  const workspaceOf = (cwd: string): string => {
    const root = deps.workspace ?? path.resolve(cwd);
    if (deps.workspace && path.resolve(cwd) !== deps.workspace) {
      deps.logger.warn(`session cwd ${cwd} is not the workspace ${deps.workspace}; the session works in the workspace.`);
    }
    return root;
  };

  const open = async (sessionId: string, workspaceRoot: string): Promise<AcpSession> => {
    const connected = client;
    if (!connected) throw RequestError.invalidRequest(undefined, 'initialize first');
    const orchestrator = await deps.orchestrator(workspaceRoot, { reads, writes });
    const session = new AcpSession({
      sessionId,
      workspaceRoot,
      orchestrator,
      writes,
      reads,
      logger: deps.logger,
      context: deps.context(workspaceRoot),
      client: {
        update: (id, update) => connected.notify('session/update', { sessionId: id, update }),
        requestPermission: (request, signal) => connected.request('session/request_permission', request, { cancellationSignal: signal }),
      },
      onRun: (runId) => {
        Promise.resolve()
          .then(async () => {
            await fs.mkdir(path.dirname(sessionFile(workspaceRoot, sessionId)), { recursive: true });
            await fs.writeFile(sessionFile(workspaceRoot, sessionId), JSON.stringify({ runId }));
          })
          .catch((error: unknown) => deps.logger.warn(`Could not record session ${sessionId}: ${errorMessage(error)}`));
      },
    });
    sessions.set(sessionId, session);
    return session;
  };

  const app = agent({ name: 'ironbees' })
    .onRequest('initialize', ({ params, client: peer }) => {
      client = peer;
      const fsWrite = params.clientCapabilities?.fs?.writeTextFile === true;
      const fsRead = params.clientCapabilities?.fs?.readTextFile === true;
      // The answer is untrusted: editor-reads.ts checks its shape and size.
      reads.useClient(
        fsRead
          ? (sessionId, absPath, signal) =>
              peer.request('fs/read_text_file', { sessionId, path: absPath }, signal ? { cancellationSignal: signal } : undefined)
          : null,
      );
      writes.useClient(
        fsWrite
          ? async (sessionId, absPath, content) => {
              await peer.request('fs/write_text_file', { sessionId, path: absPath, content });
            }
          : null,
      );
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: { loadSession: true, promptCapabilities: { image: false, audio: false, embeddedContext: true } },
        agentInfo: { name: 'ironbees', title: 'Ironbees', version: deps.version },
        authMethods: [],
      };
    })
    .onRequest('session/new', async ({ params }) => {
      const sessionId = `ib-${randomUUID()}`;
      await open(sessionId, workspaceOf(params.cwd));
      return { sessionId };
    })
    .onRequest('session/load', async ({ params }) => {
      if (!SESSION_ID.test(params.sessionId)) throw RequestError.invalidParams(undefined, `Unknown session ${params.sessionId}`);
      const workspaceRoot = workspaceOf(params.cwd);
      const recorded = await Promise.resolve()
        .then(() => fs.readFile(sessionFile(workspaceRoot, params.sessionId), 'utf8'))
        .catch(() => null);
      // A session id this agent gave out, or the id of a run (`ironbees runs`).
      const runId = recorded === null ? params.sessionId : recordedRun(recorded);
      const session = await open(params.sessionId, workspaceRoot);
      const state = await session.orchestratorState(runId).catch(() => null);
      if (!state) {
        sessions.delete(params.sessionId);
        throw RequestError.invalidParams(undefined, `No run ${runId} in ${workspaceRoot}`);
      }
      session.attach(state);
      // The conversation so far, replayed before the answer (ACP: session/load).
      const say = (update: SessionUpdate): Promise<void> => peer(params.sessionId, update);
      await say({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: state.userRequest } });
      if (state.plan) await say(planUpdate(state.plan, state.currentNode === 'SUCCESS' ? 'completed' : 'pending'));
      await say(
        text(
          TERMINAL_NODES.includes(state.currentNode)
            ? `Run ${state.stateId} ended at ${state.currentNode}. A new message starts a new run.\n`
            : `Run ${state.stateId} is at ${state.currentNode}. Send a message to continue it.\n`,
        ),
      );
      return {};
    })
    .onRequest('session/prompt', async ({ params }) => {
      const session = sessions.get(params.sessionId);
      if (!session) throw RequestError.invalidParams(undefined, `Unknown session ${params.sessionId}`);
      const words = promptWords(params.prompt);
      if (!words) throw RequestError.invalidParams(undefined, 'The prompt has no text.');
      return { stopReason: await session.prompt(words) };
    })
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });

  function peer(sessionId: string, update: SessionUpdate): Promise<void> {
    if (!client) return Promise.resolve();
    return client.notify('session/update', { sessionId, update });
  }

  return {
    app,
    close: () => {
      for (const session of sessions.values()) session.close();
    },
  };
}
