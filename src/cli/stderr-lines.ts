// Every line the CLI writes to stderr while a run is followed goes through here, because two kinds
// of output must not tear: a live line (on a terminal, the model's words redrawn in place as they
// arrive) and words streamed without a line end yet (--activity verbose). A whole line written
// meanwhile (a warning, a step, Ctrl-C) first erases the live line, or ends the open one, then the
// live line is drawn again below it. Off a terminal a live line is never drawn.

import { redact } from '../core/redact';
import { isTty } from './terminal';
import { terminalLine } from './render/terminal-text';

/** Carriage return, then erase the whole line: the cursor is at column 1 of an empty line. */
export const ERASE_LINE = '\r\x1b[2K';

/** A width to assume when the terminal does not say (a pipe that claims to be a TTY). */
const DEFAULT_COLUMNS = 80;

export class StderrLines {
  /** The live line's text, '' when there is none. */
  private liveText = '';
  /** Whether the live line is on screen now, the cursor at its end. */
  private liveShown = false;
  /** Whether streamed words were written without their line end yet. */
  private open = false;

  constructor(readonly stream: NodeJS.WritableStream) {}

  /** Whether streamed words wait for their line end (a whole line written now would end it first). */
  get isOpen(): boolean {
    return this.open;
  }

  /** Whether a live line can be redrawn in place: stderr is a terminal. */
  get isTerminal(): boolean {
    return isTty(this.stream);
  }

  /** The terminal's width in cells. */
  get columns(): number {
    const columns = (this.stream as { columns?: unknown }).columns;
    return typeof columns === 'number' && columns > 0 ? columns : DEFAULT_COLUMNS;
  }

  /** A whole line (redacted), written above the live line and after any open streamed words. */
  line(text = ''): void {
    this.endOpen();
    const live = this.liveText;
    this.eraseLive();
    this.stream.write(`${terminalLine(redact(text))}\n`);
    if (live) this.showLive(live);
  }

  /** Draws (or redraws) the live line; `text` must fit the width (the caller cuts it). Terminals only. */
  showLive(text: string): void {
    if (!this.isTerminal) return;
    this.endOpen();
    const safe = terminalLine(redact(text));
    this.stream.write(this.liveShown ? `${ERASE_LINE}${safe}` : safe);
    this.liveText = text;
    this.liveShown = true;
  }

  /** Erases the live line and forgets it. */
  clearLive(): void {
    this.eraseLive();
    this.liveText = '';
  }

  /** Streamed words (redacted; the caller hands over whole words), continuing the open line. */
  words(text: string): void {
    if (!text) return;
    if (this.liveText) this.clearLive();
    this.stream.write(terminalLine(redact(text)));
    this.open = !text.endsWith('\n');
  }

  /** Ends streamed words left without their line end. */
  endOpen(): void {
    if (!this.open) return;
    this.stream.write('\n');
    this.open = false;
  }

  private eraseLive(): void {
    if (!this.liveShown) return;
    this.stream.write(ERASE_LINE);
    this.liveShown = false;
  }
}
