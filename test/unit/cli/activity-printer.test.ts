// The live activity on stderr, byte for byte: on a terminal the turn's words are one live line
// redrawn in place (cut to the width) and folded when the turn ends; off a terminal only the folded
// line; --activity verbose streams the words whole, word by word, then the turn's cost line.

import assert from 'node:assert/strict';
import pc from 'picocolors';
import type { ActivityEvent } from '../../../src/core/activity';
import { ActivityPrinter } from '../../../src/cli/activity-printer';
import type { ActivityLevel } from '../../../src/cli/args';
import { StderrLines } from '../../../src/cli/stderr-lines';

const ERASE = '\r\x1b[2K';
const usage = { inputTokens: 1200, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.0042 };

/** A stderr that records each write as it was made. */
function fakeStderr(isTTY: boolean, columns?: number): { stream: NodeJS.WritableStream; writes: string[] } {
  const writes: string[] = [];
  const stream = { isTTY, columns, write: (chunk: string) => writes.push(chunk) > 0 } as unknown as NodeJS.WritableStream;
  return { stream, writes };
}

function printer(level: ActivityLevel, isTTY: boolean, columns?: number): { print: ActivityPrinter; lines: StderrLines; writes: string[] } {
  const { stream, writes } = fakeStderr(isTTY, columns);
  const lines = new StderrLines(stream);
  return { print: new ActivityPrinter(lines, level, pc.createColors(false)), lines, writes };
}

const start: ActivityEvent = { kind: 'turn_start', runId: 'r', agent: 'planner', turn: 1 };
const text = (words: string, turn = 1): ActivityEvent => ({ kind: 'text', runId: 'r', agent: 'planner', turn, text: words });
const end = (words: string, turn = 1): ActivityEvent => ({
  kind: 'turn_end',
  runId: 'r',
  agent: 'planner',
  turn,
  text: words,
  usage,
  durationMs: 1500,
});
const tool: ActivityEvent = {
  kind: 'tool',
  runId: 'r',
  agent: 'planner',
  turn: 1,
  tool: 'read_file',
  line: 'read src/A.cs lines 1–20 of 20',
  ok: true,
};
const TURN_LINE = '  planner turn 1: 1,200 in / 40 out tokens · $0.0042 (1.5 s)\n';

describe("ActivityPrinter: the model's words on stderr as they arrive", () => {
  it('normal on a terminal: one live line redrawn in place, its newest words cut to the width, folded when the turn ends', () => {
    const { print, writes } = printer('normal', true, 40);
    print.print(start);
    print.print(text('Let me look '));
    print.print(text('at Divide\nfirst, then the'));
    print.print(end('Let me look at Divide\nfirst, then the tests.'));
    print.print(tool);
    assert.deepEqual(writes, [
      '  planner › Let me look',
      // 40 columns, one kept free, 12 for the prefix: 27 cells, the newest words led by `…`.
      `${ERASE}  planner › …look at Divide first, then`,
      ERASE,
      '  planner › Let me look at Divide first, then the tests.\n',
      '  planner · read src/A.cs lines 1–20 of 20\n',
    ]);
  });

  it('normal on a terminal: a line written mid-turn goes above the live line, which is drawn again; close erases it', () => {
    const { print, lines, writes } = printer('normal', true, 80);
    print.print(start);
    print.print(text('Thinking about it '));
    lines.line('warning: rate limited, retrying');
    print.print(text('more '));
    print.close();
    assert.deepEqual(writes, [
      '  planner › Thinking about it',
      ERASE,
      'warning: rate limited, retrying\n',
      '  planner › Thinking about it',
      `${ERASE}  planner › Thinking about it more`,
      ERASE,
    ]);
  });

  it('normal on a terminal: escape sequences and controls from the model never reach the terminal; wide characters count two cells', () => {
    const { print, writes } = printer('normal', true, 20);
    print.print(start);
    print.print(text('\x1b[2J\x1b[31m日本語です\x07 '));
    print.print(text('日本語 '));
    // 20 - 1 - 12 = 7 cells: `…` and the newest cells; the BEL is shown as the text `\x07` (4 cells).
    assert.deepEqual(writes, ['  planner › …す\\x07', `${ERASE}  planner › …日本語`]);
  });

  it('normal on a terminal: whole words only, so a key streamed in pieces is never on screen unmasked', () => {
    const { print, writes } = printer('normal', true, 80);
    print.print(start);
    print.print(text('the key sk-ant-abc'));
    print.print(text('defghij is here'));
    assert.deepEqual(writes, ['  planner › the key', `${ERASE}  planner › the key [redacted] is`]);
  });

  it("normal off a terminal: nothing while the words stream, only the folded line at the turn's end", () => {
    const { print, writes } = printer('normal', false, 40);
    print.print(start);
    print.print(text('Let me look'));
    print.print(text(' at Divide.'));
    print.print(end('Let me look at Divide.\n\nIt multiplies.'));
    assert.deepEqual(writes, ['  planner › Let me look at Divide. It multiplies.\n']);
  });

  for (const isTTY of [false, true]) {
    it(`verbose (${isTTY ? 'terminal' : 'pipe'}): whole words as they arrive, each line of the text under the prefix, the rest at the turn's end, then its cost line`, () => {
      const { print, writes } = printer('verbose', isTTY, 20);
      print.print(start);
      print.print(text('Looking at Div'));
      print.print(text('ide.\n\nIt mult'));
      // The orchestrator tells the run's cost before the turn's end: it waits for the turn line.
      print.print({ kind: 'usage', runId: 'r', usage });
      // Words after the last text event are only in turn_end's whole text.
      print.print(end('Looking at Divide.\n\nIt multiplies instead of dividing.'));
      print.print(tool);
      assert.deepEqual(writes, [
        '  planner › Looking at ',
        'Divide.\n  planner › It ',
        'multiplies instead of dividing.',
        '\n',
        TURN_LINE,
        '  run so far: 1,200 in / 40 out tokens · $0.0042\n',
        '  planner · read src/A.cs lines 1–20 of 20\n',
      ]);
    });
  }

  it('verbose: a turn that streamed nothing prints its whole text; a line written mid-stream ends the open line first', () => {
    const { print, lines, writes } = printer('verbose', false);
    print.print(start);
    print.print(end('One.\nTwo.'));
    print.print({ kind: 'turn_start', runId: 'r', agent: 'planner', turn: 2 });
    print.print(text('Half a ', 2));
    lines.line('warning: slow');
    print.print(text('sentence. ', 2));
    print.print(end('Half a sentence.', 2));
    assert.deepEqual(writes, [
      '  planner › One.\n  planner › Two.',
      '\n',
      TURN_LINE,
      '  planner › Half a ',
      '\n',
      'warning: slow\n',
      '  planner › sentence. ',
      '\n',
      TURN_LINE.replace('turn 1', 'turn 2'),
    ]);
  });

  it('verbose: a key is written as one word, so it is redacted even when it streams in pieces', () => {
    const { print, writes } = printer('verbose', false);
    print.print(start);
    print.print(text('the key sk-ant-abc'));
    print.print(text('defghij is here'));
    print.close();
    assert.deepEqual(writes, ['  planner › the key ', '[redacted] is ', '\n']);
  });

  it('quiet: nothing at all', () => {
    const { print, writes } = printer('quiet', true, 80);
    for (const event of [start, text('words'), end('words'), tool]) print.print(event);
    print.close();
    assert.deepEqual(writes, []);
  });
});
