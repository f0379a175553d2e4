// One turn's tool calls: run each tool_use block in order and answer it with a tool_result.
// What the model got wrong is answered as data (is_error with how to fix it), never thrown:
// an unknown tool lists the agent's tools, bad arguments list the schema's complaints, a refused
// terminal call says why. A failure's text leads with its taxonomy kind and a result carries its
// affordances (renderForModel), so the model's next move can depend on what went wrong; the kind
// is on the trace too. The loop decides what a turn's outcome means.

import { errorMessage } from '../errors';
import type { ToolResultBlock, ToolUseBlock } from '../llm/port';
import type { ToolErrorKind } from '../tools/failure';
import type { ToolContext, ToolDefinition, ToolOutcome } from '../tools/types';
import { renderForModel } from '../tools/paging';
import type { ParsedToolInput, ToolRegistry } from '../tools/registry';
import type { TraceSink } from '../trace';

export type TerminalVerdict<T> = { ok: true; value: T } | { ok: false; error: string };

/** The tool that ends the agent's turn (submit_plan, submit_changes). */
export interface TerminalTool<T> {
  name: string;
  /**
   * Called with the schema-validated input once every other call of the same turn succeeded.
   * May refuse (the model is told why and tries again); a refusal is not a malformed answer.
   */
  accept(input: unknown): Promise<TerminalVerdict<T>> | TerminalVerdict<T>;
}

export interface TurnOutcome<T> {
  results: ToolResultBlock[];
  /** The model called an unknown tool or gave arguments its schema refuses. */
  malformed: boolean;
  accepted: { value: T } | null;
}

export interface ToolCallEnv<T> {
  agentName: string;
  tools: ReadonlyMap<string, ToolDefinition>;
  registry: ToolRegistry;
  context: ToolContext;
  terminal: TerminalTool<T>;
  trace?: TraceSink;
  now: () => number;
  /** Told each call's outcome as it is known (the live activity); the terminal call's is its verdict. */
  onToolDone?: (call: ToolUseBlock, outcome: ToolOutcome) => void;
}

export async function runToolCalls<T>(calls: readonly ToolUseBlock[], env: ToolCallEnv<T>): Promise<TurnOutcome<T>> {
  const results: ToolResultBlock[] = [];
  let malformed = false;
  let anyFailed = false;
  let terminalCall: { call: ToolUseBlock; input: unknown; resultIndex: number; startedAt: number } | null = null;

  for (const call of calls) {
    const startedAt = env.now();
    const answer = (outcome: ToolOutcome): void => {
      results.push({
        type: 'tool_result',
        tool_use_id: call.id,
        content: outcome.ok ? renderForModel(outcome) : clipError(renderForModel(outcome)),
        ...(outcome.ok ? {} : { is_error: true }),
      });
      if (call.name !== env.terminal.name || !outcome.ok) recordToolCall(env, call.name, startedAt, outcome);
      if (call.name !== env.terminal.name || !outcome.ok) env.onToolDone?.(call, outcome);
    };

    const def = env.tools.get(call.name);
    if (!def) {
      malformed = true;
      answer({ ok: false, kind: 'NotFound', error: `Unknown tool "${call.name}". Your tools are: ${[...env.tools.keys()].join(', ')}.` });
      continue;
    }
    // Parsed once, by the registry (the adapter): the loop only learns whether the call is well formed.
    const parsed = env.registry.parseInput(def, call.input);
    if (!parsed.ok) {
      malformed = true;
      answer(parsed.outcome);
      continue;
    }
    if (call.name === env.terminal.name) {
      if (terminalCall) {
        answer({ ok: false, kind: 'InvalidInput', error: `${call.name} was already called in this turn; call it once.` });
        continue;
      }
      // Answered after the other calls of this turn: it is accepted only if they all succeeded.
      terminalCall = { call, input: parsed.input.value, resultIndex: results.length, startedAt };
      results.push({ type: 'tool_result', tool_use_id: call.id, content: '' });
      continue;
    }
    const outcome = await executeSafely(env, def, parsed.input);
    if (!outcome.ok) anyFailed = true;
    answer(outcome);
  }

  if (!terminalCall) return { results, malformed, accepted: null };
  const { call, input, resultIndex, startedAt } = terminalCall;
  const verdict: TerminalVerdict<T> = anyFailed
    ? { ok: false, error: `Not accepted yet: another call in this turn failed (see its result). Fix that, then call ${call.name} again.` }
    : await acceptSafely(env.terminal, input);
  results[resultIndex] = verdict.ok
    ? { type: 'tool_result', tool_use_id: call.id, content: 'Accepted.' }
    : { type: 'tool_result', tool_use_id: call.id, content: verdict.error, is_error: true };
  // A refusal by the terminal tool is the model's to fix, not a tool failure: it has no kind.
  const verdictOutcome: ToolOutcome = verdict.ok ? { ok: true, content: 'Accepted.' } : { ok: false, error: verdict.error };
  recordToolCall(env, call.name, startedAt, verdictOutcome);
  env.onToolDone?.(call, verdictOutcome);
  return { results, malformed, accepted: verdict.ok ? { value: verdict.value } : null };
}

async function executeSafely<T>(env: ToolCallEnv<T>, def: ToolDefinition, input: ParsedToolInput): Promise<ToolOutcome> {
  try {
    return await env.registry.executeParsed(def, input, env.context);
  } catch (error) {
    // The registry promises not to throw for tool failures; if a bug makes it, the model still
    // gets an answer it can work around and the run goes on.
    return { ok: false, kind: 'ToolBug', error: `${def.name} failed unexpectedly: ${errorMessage(error)}` };
  }
}

async function acceptSafely<T>(terminal: TerminalTool<T>, input: unknown): Promise<TerminalVerdict<T>> {
  try {
    return await terminal.accept(input);
  } catch (error) {
    return { ok: false, error: `${terminal.name} could not be accepted: ${errorMessage(error)}` };
  }
}

function recordToolCall<T>(env: ToolCallEnv<T>, tool: string, startedAt: number, outcome: ToolOutcome): void {
  const end = env.now();
  const failure: { error?: string; failureKind?: ToolErrorKind } = outcome.ok
    ? {}
    : {
        error: outcome.error.length > 500 ? `${outcome.error.slice(0, 500)}…` : outcome.error,
        ...(outcome.kind ? { failureKind: outcome.kind } : {}),
      };
  env.trace?.record({
    kind: 'tool_call',
    at: new Date(end).toISOString(),
    agent: env.agentName,
    tool,
    ok: outcome.ok,
    durationMs: Math.max(0, end - startedAt),
    ...failure,
  });
}

/** An error that echoes a huge model input (a 200 KB path) would flood the conversation: keep its head. */
export const MAX_ERROR_CHARS = 2_000;
function clipError(text: string): string {
  return text.length <= MAX_ERROR_CHARS
    ? text
    : `${text.slice(0, MAX_ERROR_CHARS)}… (${text.length - MAX_ERROR_CHARS} more characters cut)`;
}
