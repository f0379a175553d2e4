// Keeps a long agent conversation within the model's context window. Before each model call the
// request's size is estimated (≈4 characters a token); when it would pass a set share of the
// window, the bulk of older tool results is dropped with a note. Kept: every assistant turn (the
// agent's reasoning and its tool calls: the decision log), the newest results whole, and from an
// older result the lines that declare C# types and members (the file signatures), so the agent
// still knows what it has seen. Done in place of a failing request, once per threshold crossing.

import type { ContentBlock, ModelMessage, ModelToolDefinition } from '../llm/port';

export const DEFAULT_CONTEXT_WINDOW_TOKENS = 200_000;
/** Compact when a request would pass this share of the window. */
export const COMPACT_AT_SHARE = 0.7;
/** The newest user turns whose tool results stay whole. */
const KEEP_RECENT_TURNS = 2;
/** Results shorter than this are left alone: compacting them saves nothing. */
const MIN_COMPACT_CHARS = 800;
const MAX_SIGNATURE_LINES = 60;

export function estimateTokens(system: string, tools: readonly ModelToolDefinition[], messages: readonly ModelMessage[]): number {
  return Math.ceil((system.length + JSON.stringify(tools).length + JSON.stringify(messages).length) / 4);
}

/**
 * estimateTokens for the requests of one tool loop, with each part measured once: the system prompt
 * and the tools are the same in every request, and a message once in the conversation is not changed
 * (compaction puts new objects in its place). Measuring the whole conversation again before every
 * model call cost time between the calls that grew with the conversation (a long run's file reads).
 */
export class RequestSizer {
  private readonly fixedChars: number;
  private readonly messageChars = new WeakMap<ModelMessage, number>();

  constructor(system: string, tools: readonly ModelToolDefinition[]) {
    this.fixedChars = system.length + JSON.stringify(tools).length;
  }

  /** Exactly estimateTokens(system, tools, messages). */
  tokens(messages: readonly ModelMessage[]): number {
    // JSON.stringify(messages).length: the brackets, a comma between two messages, each message.
    let chars = 2 + Math.max(0, messages.length - 1);
    for (const message of messages) chars += this.charsOf(message);
    return Math.ceil((this.fixedChars + chars) / 4);
  }

  private charsOf(message: ModelMessage): number {
    let chars = this.messageChars.get(message);
    if (chars === undefined) {
      chars = JSON.stringify(message).length;
      this.messageChars.set(message, chars);
    }
    return chars;
  }
}

export interface CompactionResult {
  messages: ModelMessage[];
  compactedResults: number;
  droppedChars: number;
}

// A C# declaration: type or member with its modifiers, as a line of its own.
const SIGNATURE =
  /^\s*(?:\d+\s+)?(?:\[[^\]]*\]\s*)*(?:(?:public|private|protected|internal|static|sealed|abstract|partial|async|override|virtual|readonly|record|unsafe|extern|new)\s+)+[\w<>,.?[\]\s]+\(?[^;{]*$|^\s*(?:\d+\s+)?(?:namespace|class|interface|struct|enum|record)\s+\w/;

export function signatureLines(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => SIGNATURE.test(line) && line.trim().length < 200)
    .slice(0, MAX_SIGNATURE_LINES)
    .map((line) => line.trimEnd());
}

export function compactMessages(messages: readonly ModelMessage[]): CompactionResult {
  const userTurns = messages.map((m, i) => (m.role === 'user' && typeof m.content !== 'string' ? i : -1)).filter((i) => i >= 0);
  const keepFrom = userTurns.length > KEEP_RECENT_TURNS ? userTurns[userTurns.length - KEEP_RECENT_TURNS] : 0;
  let compactedResults = 0;
  let droppedChars = 0;
  const out = messages.map((message, index): ModelMessage => {
    if (index >= keepFrom || message.role !== 'user' || typeof message.content === 'string') return message;
    const content = message.content.map((block): ContentBlock => {
      if (block.type !== 'tool_result' || block.content.length < MIN_COMPACT_CHARS) return block;
      const signatures = signatureLines(block.content);
      const kept = signatures.length ? `\nDeclarations it showed:\n${signatures.join('\n')}` : '';
      const note = `[compacted: ${block.content.length} characters of this older tool result were dropped to keep the conversation within the model's context window; call the tool again if you need them]${kept}`;
      compactedResults += 1;
      droppedChars += block.content.length - note.length;
      return { ...block, content: note };
    });
    return { ...message, content };
  });
  return { messages: out, compactedResults, droppedChars };
}
