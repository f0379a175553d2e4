// An agent as one unit (CONTRIBUTING.md, "Add an agent"): its name (the folder of its agent.yaml and
// prompt), the terminal tool that ends its turn, and its runner. The workflow's steps find agents
// here by name, so a new agent is registered, not wired into the steps or the tool catalog.

import { ConfigurationError } from '../errors';
import type { ToolDefinition } from '../tools/types';
import type { AgentRuntime } from './types';

export interface AgentUnit<I = never, O = unknown> {
  /** The agent's name: `agents/<name>/agent.yaml` (or the workspace's `.ironbees/agents/<name>/`). */
  readonly name: string;
  /** The tool that ends its turn; its agent.yaml must list it in requiredTools. */
  readonly terminalTool: ToolDefinition;
  /** Runs the agent once: builds its first message and runs the tool-use loop to its terminal tool. */
  run(rt: AgentRuntime, input: I): Promise<O>;
}

// The registry holds units of any input (a runner taking PlannerInput is an AgentUnit<never>); the
// caller who asks for one names the types it expects.
type AnyAgentUnit = AgentUnit<never, unknown>;

export class AgentRegistry {
  private readonly units = new Map<string, AnyAgentUnit>();

  constructor(units: readonly AnyAgentUnit[] = []) {
    for (const unit of units) this.register(unit);
  }

  /** Adds a unit, or replaces the one of the same name (a test's stand-in, a face's variant). */
  register(unit: AnyAgentUnit): this {
    this.units.set(unit.name, unit);
    return this;
  }

  names(): string[] {
    return [...this.units.keys()];
  }

  /** The registered unit, or a ConfigurationError naming the agents there are. */
  require<I, O>(name: string): AgentUnit<I, O> {
    const unit = this.units.get(name);
    if (!unit) {
      throw new ConfigurationError(`No agent runner registered as "${name}"; registered: ${this.names().join(', ') || '(none)'}`, {
        agent: name,
      });
    }
    return unit as unknown as AgentUnit<I, O>;
  }

  /** The tool that ends the named agent's turn, when a unit of that name is registered. */
  terminalToolOf(name: string): string | undefined {
    return this.units.get(name)?.terminalTool.name;
  }

  /** Every unit's terminal tool, for the tool registry. */
  terminalTools(): ToolDefinition[] {
    return [...this.units.values()].map((unit) => unit.terminalTool);
  }
}

/**
 * An agent's terminal tool: its arguments are the agent's result and a valid call ends the agent's
 * loop, so it reads nothing, writes nothing and only acknowledges (`receipt`).
 */
export function terminalTool<I>(name: string, description: string, input: ToolDefinition<I>['input'], receipt: string): ToolDefinition<I> {
  return {
    name,
    description,
    input,
    readonly: true,
    unpaged: true,
    timeoutMs: 5_000,
    execute: async () => ({ ok: true, content: receipt }),
  };
}
