// A turn the model's answer limit cut short (stopReason `max_tokens`). Its last tool call is
// incomplete (the SDKs parse what arrived of the arguments, so a half-written `new_str` or
// `file_text` looks like a whole one) and the calls before it were written by an answer that did
// not end where the model meant it to. None of them runs: each is answered with an error that says
// so, and nothing reaches the staged overlay.

import type { ToolResultBlock, ToolUseBlock } from '../llm/port';

export const CUT_STOP_REASON = 'max_tokens';

export function cutCallMessage(maxTokens: number): string {
  return (
    `Your answer was cut at max_tokens (${maxTokens} tokens) while you were writing this call, so it was not run. ` +
    'Send it again, smaller: split a large create or str_replace into several str_replace/insert calls of a few dozen lines each.'
  );
}

export function notRunMessage(maxTokens: number): string {
  return (
    `Not run: your answer was cut at max_tokens (${maxTokens} tokens) after this call, so none of the calls in it was run. ` +
    'Send this call again (in a smaller answer).'
  );
}

/** The tool results for a cut turn: the last call was cut, the others are not run either. */
export function cutTurnResults(calls: readonly ToolUseBlock[], maxTokens: number): ToolResultBlock[] {
  return calls.map((call, index) => ({
    type: 'tool_result',
    tool_use_id: call.id,
    content: index === calls.length - 1 ? cutCallMessage(maxTokens) : notRunMessage(maxTokens),
    is_error: true,
  }));
}
