// The agents that ship with Ironbees, as units (unit.ts), and the tool registry they run with: the
// built-in tools plus every registered agent's terminal tool. Adding an agent is one line here.

import { READ_ONLY_TOOL_NAMES, createBuiltinToolRegistry } from '../tools/catalog';
import type { ToolRegistry } from '../tools/registry';
import { coderAgent } from './coder/runner';
import { plannerAgent } from './planner/runner';
import { reviewerAgent } from './reviewer/runner';
import { AgentRegistry } from './unit';

export function builtinAgentRegistry(): AgentRegistry {
  return new AgentRegistry([plannerAgent, coderAgent, reviewerAgent]);
}

/** The built-in tools, then the terminal tool of each agent in `agents` (default: the built-in ones). */
export function createDefaultToolRegistry(agents: AgentRegistry = builtinAgentRegistry()): ToolRegistry {
  const registry = createBuiltinToolRegistry();
  for (const tool of agents.terminalTools()) registry.register(tool);
  return registry;
}

/** The bundled planner's, coder's and reviewer's tools (their agent.yaml files list these). */
export const PLANNER_TOOL_NAMES = [...READ_ONLY_TOOL_NAMES, plannerAgent.terminalTool.name] as const;
export const CODER_TOOL_NAMES = [
  ...READ_ONLY_TOOL_NAMES,
  'str_replace_based_edit_tool',
  'check_code',
  coderAgent.terminalTool.name,
] as const;
export const REVIEWER_TOOL_NAMES = [...READ_ONLY_TOOL_NAMES, reviewerAgent.terminalTool.name] as const;
