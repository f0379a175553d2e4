// Notices a model going round in circles: the same tool called with the same arguments failing
// with the same error. The second time, the tool result says so (the model may not have noticed);
// the third time the step stops and the run escalates as stuck, instead of spending the rest of
// its turn budget on calls that cannot succeed.

import { AgentModeError } from '../errors';
import type { ToolResultBlock, ToolUseBlock } from '../llm/port';

export const STUCK_CODE = 'STUCK';
const STOP_AT = 3;

/** A step that stopped because its model repeated a failing call: the run escalates, it does not fail. */
export class StuckError extends AgentModeError {
  constructor(agentName: string, tool: string, error: string, details: Record<string, unknown> = {}) {
    super(
      `${agentName} is stuck: it called ${tool} ${STOP_AT} times with the same arguments and got the same error each time: ${error.slice(0, 300)}`,
      STUCK_CODE,
      { agentName, tool, ...details },
    );
  }
}

export function repeatNote(tool: string): string {
  return `\n\n(You already made this exact ${tool} call and got this exact error. A third identical attempt stops your step as stuck: change the arguments or try another approach.)`;
}

export class RepeatedFailureDetector {
  private readonly seen = new Map<string, number>();

  /**
   * Counts this turn's failed calls. Returns the results with the note added to a repeated
   * failure, or throws StuckError at the third identical one.
   */
  check(
    agentName: string,
    calls: readonly ToolUseBlock[],
    results: readonly ToolResultBlock[],
    details: Record<string, unknown> = {},
  ): ToolResultBlock[] {
    return results.map((result) => {
      if (!result.is_error) return result;
      const call = calls.find((c) => c.id === result.tool_use_id);
      if (!call) return result;
      const key = `${call.name}\u0000${stableJson(call.input)}\u0000${result.content}`;
      const count = (this.seen.get(key) ?? 0) + 1;
      this.seen.set(key, count);
      if (count >= STOP_AT) throw new StuckError(agentName, call.name, result.content, details);
      return count === 2 ? { ...result, content: result.content + repeatNote(call.name) } : result;
    });
  }
}

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` are the same call. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as Record<string, unknown>)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
