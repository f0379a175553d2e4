// Shared set-up for the planner and coder tests: a temp copy of the calculator fixture (sources
// only), the real Node host, the real tool catalog and the bundled agents, with a scripted model.

import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadAgents } from '../../../src/core/agents/loader';
import type { AgentRuntime } from '../../../src/core/agents/types';
import type { ModelClient } from '../../../src/core/llm/port';
import { createDefaultToolRegistry } from '../../../src/core/agents/builtin';
import type { TraceEvent } from '../../../src/core/trace';
import { createNodeHost } from '../../../src/host/node/index';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const CALCULATOR_FIXTURE = path.join(REPO_ROOT, 'test/fixtures/calculator');
export const CALCULATOR_SOURCE = 'src/Calculator/Calculator.cs';

export async function copyCalculator(): Promise<string> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-agents-ws-'));
  await fs.cp(CALCULATOR_FIXTURE, root, {
    recursive: true,
    filter: (source) => !['bin', 'obj'].includes(path.basename(source)),
  });
  return root;
}

export interface AgentTestRuntime extends AgentRuntime {
  events: TraceEvent[];
}

export async function agentRuntime(workspaceRoot: string, model: ModelClient): Promise<AgentTestRuntime> {
  const tools = createDefaultToolRegistry();
  const agents = await loadAgents({ bundledDir: path.join(REPO_ROOT, 'agents'), knownTools: tools.names() });
  const events: TraceEvent[] = [];
  const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  return {
    host: createNodeHost(workspaceRoot, { logger: silent }),
    model,
    tools,
    agents,
    trace: { record: (event) => events.push(event) },
    events,
  };
}
