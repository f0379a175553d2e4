// Plain text helpers every layer shares.

/** `text` cut to at most `max` characters, the last of them an ellipsis when something was cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
