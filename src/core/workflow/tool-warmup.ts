// The agents' tools as the model sees them are made once per process, on first use (registry.ts):
// most of it is each tool's JSON Schema, ~4 ms of zod in the first PLAN step and ~1 ms in the first
// CODE step, between the transition and the first model call. Zod itself and the tools' zod schemas
// are not made at start either (lazy-schema.ts). INIT waits seconds for dotnet to build and test the
// baseline, so all of it is made then — once the first dotnet process has started, so the baseline
// does not start later for it (captureBaseline's onFirstProcess). So is the run's trace id, which
// each step's turns carry (a hash, made once per run: turn-trace.ts); making it loads node:crypto,
// which a start leaves out (lazy-crypto.ts), for the edit journal's hashes too.

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
