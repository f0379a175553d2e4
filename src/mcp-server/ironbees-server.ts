// Ironbees as an MCP server: the workspace's C# tools, run control and the APMAS coordination tools,
// each run through the same ToolRegistry adapter the agents use (validation, time limit, paging).
// Tool failures are answered as `isError` results with their taxonomy kind, never as protocol errors.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Host } from '../core/host';
import type { Orchestrator } from '../core/trace';
import { ToolRegistry, inputJsonSchema } from '../core/runtime/faces';
import { StagedOverlay } from '../core/workspace/overlay';
import { apmasTools } from './apmas-tools';
import { CoordinationStore } from './coordination-store';
import { runTools } from './run-tools';
import { checkpointTools } from './checkpoint-tools';
import { workspaceTools } from './workspace-tools';

export interface IronbeesMcpServerOptions {
  host: Host;
  /** Created on the first run-control call (it needs the model and dotnet). */
  orchestrator(): Promise<Orchestrator>;
  /** The orchestrator if `orchestrator()` already made one (shared by every HTTP session); never creates it. */
  existingOrchestrator?(): Orchestrator | null;
  version: string;
}

export function createIronbeesMcpServer(options: IronbeesMcpServerOptions): Server {
  const { host } = options;
  const coordination = new CoordinationStore(host);
  // Remembered once created: a help request reaches a run only if it lives in this process, and
  // asking for help must not start a model or dotnet just to find out that it does not.
  let created: Orchestrator | null = null;
  const orchestrator = async (): Promise<Orchestrator> => (created = await options.orchestrator());
  const requestHelp = async (runId: string, reason: string): Promise<boolean> => {
    const live = options.existingOrchestrator?.() ?? created;
    return live?.requestHelp ? live.requestHelp(runId, reason) : false;
  };
  const registry = new ToolRegistry();
  for (const tool of [
    ...workspaceTools(),
    ...runTools({ workspaceRoot: host.workspaceRoot, orchestrator, coordination, logger: host.logger }),
    ...apmasTools(coordination, { requestHelp }),
    ...checkpointTools(host),
  ]) {
    registry.register(tool);
  }

  const server = new Server({ name: 'ironbees', version: options.version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: registry.names().map((name) => {
      const def = registry.get(name);
      return {
        name,
        description: def.description,
        inputSchema: { ...inputJsonSchema(def.input), type: 'object' as const },
        // A tool that runs the repository's MSBuild or tests can do anything that code does: not read-only.
        annotations: { readOnlyHint: def.readonly && def.runsRepositoryCode !== true },
      };
    }),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    if (!registry.has(request.params.name)) {
      return {
        isError: true,
        content: [{ type: 'text', text: `[NotFound] Unknown tool "${request.params.name}"; tools: ${registry.names().join(', ')}.` }],
      };
    }
    const outcome = await registry.execute(registry.get(request.params.name), request.params.arguments ?? {}, {
      host,
      overlay: new StagedOverlay(host),
      signal: extra.signal,
    });
    if (!outcome.ok) return { isError: true, content: [{ type: 'text', text: `[${outcome.kind ?? 'ToolBug'}] ${outcome.error}` }] };
    const structured =
      outcome.data !== null && typeof outcome.data === 'object' && !Array.isArray(outcome.data)
        ? (outcome.data as Record<string, unknown>)
        : undefined;
    return {
      content: [{ type: 'text', text: outcome.content }],
      ...(structured && !outcome.observation?.keyFacts.page ? { structuredContent: structured } : {}),
    };
  });
  return server;
}
