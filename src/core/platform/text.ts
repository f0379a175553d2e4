// Plain text helpers every layer shares.

/** `text` cut to at most `max` characters, the last of them an ellipsis when something was cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

// What a person reads is what the model wrote: a control character in model output (an escape
// sequence that writes the clipboard, retitles or clears the terminal, hides text; a bidi override
// that reorders a line) is shown as visible text, never emitted. Newline and tab are kept, and so is
// a carriage return ending a line (a CRLF file's line end moves nothing).
// eslint-disable-next-line no-control-regex
const UNSAFE_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n|$)/g;

/** `\x1b` for ESC, `\x07` for BEL, `\x9b` for a C1 CSI, `\u202e` for a bidi override. */
export function showControl(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every unsafe control character written out (`\x1b`): printable, and idempotent. */
export function visibleControls(text: string): string {
  return text.replace(UNSAFE_CONTROLS, showControl);
}

/** A JSON-able value with `visibleControls` applied to every string in it (for rendering only). */
export function visibleDeep<T>(value: T): T {
  if (typeof value === 'string') return visibleControls(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => visibleDeep(item)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, visibleDeep(item)])) as T;
  }
  return value;
}
