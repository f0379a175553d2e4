// The live activity printed on stderr as it happens (render/activity.ts words each line).
// normal: on a terminal the current turn's words are one live line — its newest words, cut to the
// terminal's width, redrawn in place as they arrive — replaced by the turn's folded line when it
// ends; off a terminal only that folded line is printed (logs stay clean). verbose: the whole text
// is streamed word by word (the terminal wraps it, nothing is cut), then the turn's cost line.
// Words are written whole, so the redactor always sees a secret in one piece.

import type { ActivityEvent } from '../core/activity';
import { redact } from '../core/redact';
import type { ActivityLevel } from './args';
import { activityLines } from './render/activity';
import { displayWidth, lastCells, terminalSafe } from './render/terminal-text';
import type { StderrLines } from './stderr-lines';
import type { Colors } from './terminal';

/** The newest words a live line can need: no terminal is this wide. */
const LIVE_TAIL_CHARS = 2000;

interface Turn {
  agent: string;
  turn: number;
  /** normal: the turn's newest whole words on one line, for the live line. */
  tail: string;
  /** verbose: non-blank characters already streamed, to find where turn_end's whole text goes on. */
  streamedChars: number;
  /** The unfinished last word, held until the next blank or the turn's end. */
  pending: string;
}

type TurnEvent<K extends ActivityEvent['kind']> = Extract<ActivityEvent, { kind: K }>;

export class ActivityPrinter {
  private turn: Turn | null = null;
  /** The run's usage, told while a turn's words stream (before its turn_end): printed after its turn line. */
  private heldUsage: ActivityEvent | null = null;

  constructor(
    private readonly out: StderrLines,
    private readonly level: ActivityLevel,
    private readonly colors: Colors,
  ) {}

  print(event: ActivityEvent): void {
    if (this.level === 'quiet') return;
    switch (event.kind) {
      case 'turn_start':
        this.turn = null;
        this.current(event.agent, event.turn);
        return;
      case 'text':
        this.onText(event);
        return;
      case 'turn_end':
        this.onTurnEnd(event);
        return;
      case 'tool':
        this.lines({ ...event, line: oneLine(event.line) });
        return;
      case 'usage':
        // The orchestrator tells the run's cost before the turn's end: not in the middle of its words.
        if (this.turn) this.heldUsage = event;
        else this.lines(event);
        return;
    }
  }

  /** The run is no longer followed: a turn cut short leaves no live line and no open line behind. */
  close(): void {
    this.out.endOpen();
    this.out.clearLive();
    this.turn = null;
    this.printHeldUsage();
  }

  private onText(event: TurnEvent<'text'>): void {
    if (this.level === 'normal' && !this.out.isTerminal) return;
    const turn = this.current(event.agent, event.turn);
    const text = terminalSafe(event.text);
    turn.streamedChars += nonBlankChars(text);
    // Whole words only: half a key is never on screen, waiting for the half that would mask it.
    const words = turn.pending + text;
    const end = wordsEnd(words);
    turn.pending = words.slice(end);
    if (end === 0) return;
    if (this.level === 'verbose') {
      this.writeWords(turn.agent, words.slice(0, end));
      return;
    }
    turn.tail = `${turn.tail}${words.slice(0, end)}`.replace(/\s+/g, ' ').slice(-LIVE_TAIL_CHARS);
    const prefix = `  ${turn.agent} › `;
    // Masked before it is cut, so a key is masked whole; one cell short of the width, as a line
    // that fills it exactly makes some terminals wrap.
    this.out.showLive(`${prefix}${lastCells(redact(turn.tail.trim()), this.out.columns - 1 - displayWidth(prefix))}`);
  }

  private onTurnEnd(event: TurnEvent<'turn_end'>): void {
    const turn = this.current(event.agent, event.turn);
    this.turn = null;
    const text = terminalSafe(event.text);
    if (this.level === 'verbose') {
      // Words that arrived after the last text event are only in the turn's whole text.
      this.writeWords(turn.agent, turn.pending + text.slice(indexAfterNonBlank(text, turn.streamedChars)));
      this.out.endOpen();
      this.lines({ ...event, text: '' });
    } else {
      this.out.clearLive();
      this.lines({ ...event, text });
    }
    this.printHeldUsage();
  }

  private printHeldUsage(): void {
    const usage = this.heldUsage;
    this.heldUsage = null;
    if (usage) this.lines(usage);
  }

  private lines(event: ActivityEvent): void {
    for (const line of activityLines(event, this.level, this.colors)) this.out.line(line);
  }

  /** Streamed words, each of the text's lines under the agent's prefix; blank lines are skipped. */
  private writeWords(agent: string, words: string): void {
    let open = this.out.isOpen;
    let written = '';
    words.split('\n').forEach((piece, index) => {
      if (index > 0 && open) {
        written += '\n';
        open = false;
      }
      const part = open ? piece : piece.trimStart();
      if (!part) return;
      written += open ? part : `  ${agent} › ${part}`;
      open = true;
    });
    this.out.words(written);
  }

  private current(agent: string, turn: number): Turn {
    if (!this.turn || this.turn.agent !== agent || this.turn.turn !== turn)
      this.turn = { agent, turn, tail: '', streamedChars: 0, pending: '' };
    return this.turn;
  }
}

/** Where the whole words of `text` end: after its last blank (0 when it is one unfinished word). */
function wordsEnd(text: string): number {
  const last = /\s(?=\S*$)/.exec(text);
  return last ? last.index + 1 : 0;
}

function nonBlankChars(text: string): number {
  return text.replace(/\s+/g, '').length;
}

/** The index in `text` just after its first `count` non-blank characters (its length when it has fewer). */
function indexAfterNonBlank(text: string, count: number): number {
  if (count <= 0) return 0;
  let seen = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (/\s/.test(text[index])) continue;
    seen += 1;
    if (seen === count) return index + 1;
  }
  return text.length;
}

function oneLine(text: string): string {
  return terminalSafe(text).replace(/\s*\n\s*/g, ' ');
}
