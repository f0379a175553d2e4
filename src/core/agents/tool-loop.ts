// The one tool-use loop every model-driven agent runs: call the model, run the tools it asked for,
// answer with the results, until it calls its terminal tool with input that is accepted.
//
// Bounded twice: `turnBudget` model calls at most, and `maxMalformed` consecutive malformed turns
// (unknown tool, arguments the schema refuses, or no tool call at all). Consecutive, because a
// model that slips once and then recovers is making progress; the turn budget bounds the rest.
//
// The system prompt and the tool list never change within a loop, and each turn only appends to
// the conversation, so the whole prefix stays cacheable (the model client places the breakpoints).

import { AgentExecutionError, AgentModeError } from '../errors';
import { EMPTY_USAGE, addUsage } from '../model';
import type { Usage } from '../model';
import type { ContentBlock, ModelMessage, ModelRequest, ModelResponse, ToolUseBlock } from '../llm/port';
import type { ToolContext } from '../tools/types';
import { DEFAULT_MAX_MALFORMED, DEFAULT_TURN_BUDGET } from './agent-definition';
import type { AgentDefinition } from './agent-definition';
import { renderTemplate } from './prompt-template';
import { runToolCalls } from './tool-calls';
import { chooseModel } from '../llm/providers/choice';
import { RepeatedFailureDetector } from './loop-detector';
import { COMPACT_AT_SHARE, DEFAULT_CONTEXT_WINDOW_TOKENS, RequestSizer, compactMessages } from './compaction';
import type { TerminalTool } from './tool-calls';
import type { AgentRuntime } from './types';
import { LoopActivity } from './loop-activity';
import { CUT_STOP_REASON, cutTurnResults } from './cut-turn';
import { budgetNote } from './budget-notes';
import { CheckLoopDetector } from './check-loop';
import { redactDeep } from '../redact';

export type { TerminalTool, TerminalVerdict } from './tool-calls';

export interface ToolLoopOptions<T> {
  agent: AgentDefinition;
  runtime: AgentRuntime;
  /** Where the tools read and write (the staged overlay). */
  toolContext: ToolContext;
  /** The first user message: the per-run facts (request, plan, errors). */
  userMessage: string;
  terminal: TerminalTool<T>;
  /** Extra `{{var}}` values for the prompt template (turnBudget, tools and agentName are always set). */
  templateVars?: Readonly<Record<string, string | number>>;
}

export interface ToolLoopResult<T> {
  value: T;
  usage: Usage;
  /** Model calls made. */
  turns: number;
  messages: ModelMessage[];
}

export async function runToolLoop<T>(options: ToolLoopOptions<T>): Promise<ToolLoopResult<T>> {
  const { agent, runtime, terminal } = options;
  const turnBudget = agent.toolConfig.turnBudget ?? DEFAULT_TURN_BUDGET;
  const maxMalformed = agent.toolConfig.maxMalformed ?? DEFAULT_MAX_MALFORMED;
  const choice = chooseModel(agent.name, agent.llmConfig, { provider: runtime.providerOverride, model: runtime.modelOverride });
  const now = (): number => runtime.host.clock.now();

  // MCP tools (`mcp__<server>__<tool>`) resolve here, through the source the composition root
  // registered (core/runtime), starting their servers on first use.
  const defs = await runtime.tools.forAgentAsync(agent.requiredTools);
  const tools = new Map(defs.map((def) => [def.name, def]));
  if (!tools.has(terminal.name)) {
    throw new AgentExecutionError(
      agent.name,
      `its requiredTools (in ${agent.sourceDir}) must include ${terminal.name}, the tool that ends its turn`,
    );
  }
  const toolNames = [...tools.keys()];
  const prompt = renderTemplate(agent.prompt, {
    turnBudget,
    tools: toolNames.join(', '),
    agentName: agent.name,
    terminalTool: terminal.name,
    ...options.templateVars,
  });
  // In the system prompt, so the instructions are part of the cached prefix of every turn.
  const system = runtime.instructions ? `${prompt}\n\n${runtime.instructions}` : prompt;
  const modelTools = runtime.tools.toModelTools(defs);
  const firstMessage = runtime.continuation ? `${runtime.continuation}\n\n${options.userMessage}` : options.userMessage;
  const messages: ModelMessage[] = [{ role: 'user', content: firstMessage }];
  let usage: Usage = EMPTY_USAGE;
  let malformedStreak = 0;
  let toolChoice: ModelRequest['toolChoice'] = 'auto';
  const repeats = new RepeatedFailureDetector();
  const checks = new CheckLoopDetector();
  const activity = new LoopActivity(runtime.activity, agent.name, now);

  const malformedTurn = (what: string): void => {
    malformedStreak += 1;
    if (malformedStreak > maxMalformed) {
      throw new AgentExecutionError(
        agent.name,
        `gave ${malformedStreak} malformed answers in a row (the limit is toolConfig.maxMalformed = ${maxMalformed}); the last: ${what}`,
        { usage },
      );
    }
  };

  const contextWindow = positiveNumber(agent.toolConfig.contextWindowTokens) ?? DEFAULT_CONTEXT_WINDOW_TOKENS;

  const sizer = new RequestSizer(system, modelTools);

  for (let turn = 1; turn <= turnBudget; turn++) {
    throwIfCancelled(runtime.signal, agent.name);
    compactIfNeeded(runtime, agent.name, contextWindow, sizer, messages);
    const response = await callModel(runtime, agent, {
      provider: choice.provider,
      model: choice.model,
      system,
      tools: modelTools,
      messages,
      maxTokens: agent.llmConfig.maxTokens,
      ...(agent.llmConfig.temperature !== undefined ? { temperature: agent.llmConfig.temperature } : {}),
      toolChoice,
      signal: runtime.signal,
      ...activity.turnStarted(turn),
    });
    activity.turnEnded(response);
    usage = addUsage(usage, response.usage);
    // A budget reached by this call stops the step here, before any tool it asked for runs.
    throwIfCancelled(runtime.signal, agent.name);
    messages.push({ role: 'assistant', content: response.content.length > 0 ? response.content : [{ type: 'text', text: '(no answer)' }] });

    const calls = response.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
    if (calls.length === 0) {
      if (response.stopReason === 'refusal') {
        throw new AgentExecutionError(agent.name, `the model declined the task: ${textOf(response) || '(no reason given)'}`, { usage });
      }
      const reminder = noToolCallReminder(response, terminal.name, toolNames);
      malformedTurn(reminder);
      const note = budgetNote(turn, turnBudget, terminal.name);
      messages.push({ role: 'user', content: note ? `${reminder}\n\n${note}` : reminder });
      // One forced tool call after a plain-text answer; back to 'auto' so the model may reason aloud.
      toolChoice = 'any';
      continue;
    }
    toolChoice = 'auto';

    if (response.stopReason === CUT_STOP_REASON) {
      // A cut answer's calls are not the model's whole intent: none runs (cut-turn.ts).
      const cut: ContentBlock[] = cutTurnResults(calls, agent.llmConfig.maxTokens);
      malformedTurn(`the answer was cut at max_tokens during a call to ${calls[calls.length - 1].name}`);
      addBudgetNote(cut, turn, turnBudget, terminal.name);
      messages.push({ role: 'user', content: cut });
      continue;
    }

    const outcome = await runToolCalls(calls, {
      agentName: agent.name,
      tools,
      registry: runtime.tools,
      context: options.toolContext,
      terminal,
      trace: runtime.trace,
      now,
      onToolDone: activity.onToolDone,
    });
    throwIfCancelled(runtime.signal, agent.name);
    if (outcome.accepted) return { value: outcome.accepted.value, usage, turns: turn, messages };
    if (outcome.malformed) {
      const firstError = outcome.results.find((result) => result.is_error)?.content ?? 'malformed tool call';
      malformedTurn(firstError);
    } else {
      malformedStreak = 0;
    }
    // The same failing call again: said in its result the 2nd time; the 3rd stops the step as stuck.
    const content: ContentBlock[] = checks.check(calls, repeats.check(agent.name, calls, outcome.results, { usage }));
    addBudgetNote(content, turn, turnBudget, terminal.name);
    messages.push({ role: 'user', content });
  }
  throw new AgentExecutionError(
    agent.name,
    `did not finish with ${terminal.name} within its turn budget of ${turnBudget} model calls (toolConfig.turnBudget in agent.yaml)`,
    { usage },
  );
}

/**
 * The one place a request leaves for the model: its text is redacted here (a test's output, a tool
 * result or a file may carry a credential the API must never receive). The signal and the stream
 * callback are passed as they are.
 */
async function callModel(runtime: AgentRuntime, agent: AgentDefinition, request: ModelRequest): Promise<ModelResponse> {
  const started = runtime.host.clock.now();
  const { signal, onText, onProgress, ...data } = request;
  const response = await runtime.model.complete({
    ...redactDeep(data),
    ...(signal ? { signal } : {}),
    ...(onText ? { onText } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
  const ended = runtime.host.clock.now();
  runtime.trace?.record({
    kind: 'model_call',
    at: new Date(ended).toISOString(),
    agent: agent.name,
    model: response.model || request.model,
    durationMs: Math.max(0, ended - started),
    stopReason: response.stopReason,
    usage: response.usage,
  });
  if (response.fallback)
    runtime.trace?.record({ kind: 'model_fallback', at: new Date(ended).toISOString(), agent: agent.name, ...response.fallback });
  return response;
}

function addBudgetNote(content: ContentBlock[], turn: number, turnBudget: number, terminalName: string): void {
  const note = budgetNote(turn, turnBudget, terminalName);
  if (note) content.push({ type: 'text', text: note });
}

function noToolCallReminder(response: ModelResponse, terminalName: string, toolNames: readonly string[]): string {
  const cutOff =
    response.stopReason === 'max_tokens' ? 'Your answer was cut off at the max_tokens limit before any tool call; be briefer. ' : '';
  return (
    `${cutOff}You must act through a tool call; plain text is not read by anyone. ` +
    `Continue with one of your tools (${toolNames.join(', ')}), or, if you are done, call ${terminalName}.`
  );
}

function textOf(response: ModelResponse): string {
  return response.content
    .filter((block) => block.type === 'text')
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('\n')
    .trim();
}

export function throwIfCancelled(signal: AbortSignal | undefined, agentName: string): void {
  if (signal?.aborted) throw new AgentModeError(`${agentName}: cancelled`, 'CANCELLED', { agentName });
}

function positiveNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Compacts older tool results in place when the next request would pass its share of the window. */
function compactIfNeeded(
  runtime: AgentRuntime,
  agentName: string,
  contextWindow: number,
  sizer: RequestSizer,
  messages: ModelMessage[],
): void {
  const before = sizer.tokens(messages);
  if (before <= contextWindow * COMPACT_AT_SHARE) return;
  const compacted = compactMessages(messages);
  if (compacted.compactedResults === 0) return;
  messages.splice(0, messages.length, ...compacted.messages);
  const after = sizer.tokens(messages);
  runtime.trace?.record({
    kind: 'compaction',
    at: new Date(runtime.host.clock.now()).toISOString(),
    agent: agentName,
    estimatedTokensBefore: before,
    estimatedTokensAfter: after,
    compactedResults: compacted.compactedResults,
  });
}
