// The agents' tools as the model sees them (mostly each tool's JSON Schema) are made once per process,
// on first use (registry.ts). INIT waits for dotnet to build and test the baseline, so they are made
// then, once the first dotnet process has started (captureBaseline's onFirstProcess), rather than
// between the first transition and the first model call; so is the run's trace id (turn-trace.ts).

import type { AgentCatalog } from '../agents/loader';
import type { AgentRegistry } from '../agents/unit';
import type { ToolRegistry } from '../tools/registry';
import { traceIdOf } from './turn-trace';

/** Makes the model-facing form of every registered agent's tools. */
export function prepareAgentTools(tools: ToolRegistry, agents: AgentCatalog, units: AgentRegistry): void {
  try {
    for (const name of units.names()) tools.prepareModelTools(agents.get(name)?.requiredTools ?? []);
  } catch {
    // Only ahead of time: the step that needs a tool makes its schema again and reports what is wrong.
  }
}

/** What the steps after the baseline would otherwise work out between two steps: the agents' tools and the run's trace id. */
export function prepareRunSteps(runId: string, tools: ToolRegistry, agents: AgentCatalog, units: AgentRegistry): void {
  prepareAgentTools(tools, agents, units);
  traceIdOf(runId);
}
