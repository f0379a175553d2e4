// The review bar's actions as the person reads them above a proposed file: a label and the key that
// does the same (package.json binds these keys; review-bar.test.ts keeps the two the same). Pure.

export interface ReviewAction {
  command: string;
  label: string;
  icon: string;
  /** As package.json's `key` and `mac` write it. */
  key: string;
  mac: string;
}

export const REVIEW_ACTIONS: readonly ReviewAction[] = [
  { command: 'ironbees.acceptFile', label: 'Accept File', icon: 'check', key: 'ctrl+alt+y', mac: 'cmd+alt+y' },
  { command: 'ironbees.rejectFile', label: 'Reject File', icon: 'close', key: 'ctrl+alt+n', mac: 'cmd+alt+n' },
  { command: 'ironbees.nextHunk', label: 'Next Change', icon: 'arrow-down', key: 'ctrl+alt+down', mac: 'cmd+alt+down' },
  { command: 'ironbees.acceptAll', label: 'Accept All', icon: 'check-all', key: 'ctrl+alt+shift+y', mac: 'cmd+alt+shift+y' },
  { command: 'ironbees.rejectAll', label: 'Reject All…', icon: 'close-all', key: 'ctrl+alt+shift+n', mac: 'cmd+alt+shift+n' },
];

/** The hunk actions under the cursor; their CodeLens on each hunk names the key in its tooltip. */
export const HUNK_ACTIONS = {
  accept: { command: 'ironbees.acceptHunk', key: 'ctrl+alt+a', mac: 'cmd+alt+a' },
  reject: { command: 'ironbees.rejectHunk', key: 'ctrl+alt+r', mac: 'cmd+alt+r' },
} as const;

const MAC_SYMBOLS: Record<string, string> = { cmd: '⌘', alt: '⌥', shift: '⇧', ctrl: '⌃', down: '↓', up: '↑' };
const NAMES: Record<string, string> = { ctrl: 'Ctrl', alt: 'Alt', shift: 'Shift', down: '↓', up: '↑' };

/** `ctrl+alt+y` → `Ctrl+Alt+Y`; on macOS `cmd+alt+y` → `⌥⌘Y` (modifiers in Apple's order). */
export function keyLabel(action: { key: string; mac: string }, platform: string): string {
  if (platform === 'darwin') {
    const parts = action.mac.split('+');
    const key = parts.pop() ?? '';
    const order = ['ctrl', 'alt', 'shift', 'cmd'];
    const modifiers = order.filter((m) => parts.includes(m)).map((m) => MAC_SYMBOLS[m]);
    return modifiers.join('') + (MAC_SYMBOLS[key] ?? key.toUpperCase());
  }
  return action.key
    .split('+')
    .map((part) => NAMES[part] ?? part.toUpperCase())
    .join('+');
}
