// Text from the model made safe and sized for a terminal line. The model's words may carry escape
// sequences or control characters (echoed from a file, or on purpose): they are shown as text
// (`\x1b`, core/platform/text.ts), so they can neither move the cursor, write the clipboard, nor recolour or
// clear the person's terminal. Widths count what a terminal
// draws: one cell for most characters, two for East Asian wide ones and emoji, none for marks that
// combine with the character before (Intl.Segmenter keeps them with it).

import { showControl, visibleControls } from '../../core/platform/text';

/** Wide in a terminal: Hangul Jamo, CJK, Hangul syllables, compatibility ideographs, full-width forms, emoji. */
const WIDE =
  /^(?:[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{20000}-\u{3fffd}]|\p{Extended_Pictographic})/u;

// Made on first use: building a Segmenter loads ICU's break data, which a `--json` run never needs.
let segmenter: Intl.Segmenter | undefined;
function graphemes(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter;
}

/** `text` with escape sequences and control characters shown as text; tabs become spaces, newlines stay. */
export function terminalSafe(text: string): string {
  return visibleControls(text).replace(/\t/g, ' ');
}

/** A colour (SGR) sequence of our own, or any other control character (a CR before a newline kept). */
const OWN_COLOUR_OR_CONTROL =
  // eslint-disable-next-line no-control-regex
  /(\x1b\[[0-9;]*m)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n|$)/g;

/**
 * The last guard before a line reaches the terminal (writeLine, StderrLines): colour sequences are
 * the only controls the CLI writes in a line, so every other one is shown as text. Renderers make
 * model text visible themselves (it must not pick its own colours either); this catches the rest.
 */
export function terminalLine(text: string): string {
  return text.replace(OWN_COLOUR_OR_CONTROL, (match: string, colour: string | undefined) => colour ?? showControl(match));
}

/** The cells `text` (already terminal-safe, one line) takes. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const { segment } of graphemes().segment(text)) width += cellsOf(segment);
  return width;
}

/**
 * The end of `text` that fits in `width` cells, led by `…` when something was cut: the newest words
 * of a turn, for a live line that shows what the model is saying now.
 */
export function lastCells(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  const parts = Array.from(graphemes().segment(text), ({ segment }) => segment);
  let used = 1; // the ellipsis
  let start = parts.length;
  while (start > 0 && used + cellsOf(parts[start - 1]) <= width) {
    start -= 1;
    used += cellsOf(parts[start]);
  }
  // A cut inside a word drops that word's tail too (the line starts at a whole word), unless the kept
  // text is one word: then a piece of it is all there is to show.
  const wordBreak = parts.findIndex((part, index) => index >= start && /\s/.test(part));
  if (start > 0 && !/\s/.test(parts[start - 1]) && wordBreak >= 0) start = wordBreak + 1;
  return `…${parts.slice(start).join('')}`;
}

function cellsOf(grapheme: string): number {
  return WIDE.test(grapheme) ? 2 : 1;
}
