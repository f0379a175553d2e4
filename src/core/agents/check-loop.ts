// Notices an edit → check loop that makes no progress: check_code answering with the same compile
// errors again and again while the model keeps editing. Each answer from the third identical one on
// says so, so the model reads the lines the errors name (or says it is blocked) instead of spending
// its turn budget on edits that do not reach the cause.

import type { ToolResultBlock, ToolUseBlock } from '../llm/port';

export const CHECK_TOOL = 'check_code';
export const SAME_CHECK_NOTE_AT = 3;

export function sameCheckNote(times: number): string {
  return (
    `\n\n(check_code has now answered with exactly these errors ${times} times in a row: your edits since did not change them. ` +
    'View the lines they name and fix their cause; if you cannot, call submit_changes with a summary that starts with "BLOCKED:" and says why.)'
  );
}

export class CheckLoopDetector {
  private last: string | null = null;
  private times = 0;

  /** The results, with the note added to a check_code answer repeated SAME_CHECK_NOTE_AT times or more. */
  check(calls: readonly ToolUseBlock[], results: readonly ToolResultBlock[]): ToolResultBlock[] {
    return results.map((result) => {
      const call = calls.find((c) => c.id === result.tool_use_id);
      if (call?.name !== CHECK_TOOL || result.is_error) return result;
      // Only answers that list errors count: a clean check is progress.
      if (!/new compile error/.test(result.content)) {
        this.last = null;
        this.times = 0;
        return result;
      }
      this.times = result.content === this.last ? this.times + 1 : 1;
      this.last = result.content;
      return this.times >= SAME_CHECK_NOTE_AT ? { ...result, content: result.content + sameCheckNote(this.times) } : result;
    });
  }
}
