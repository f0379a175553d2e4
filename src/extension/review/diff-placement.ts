// Where a review diff opens and whether it takes the focus. VS Code draws an editor group's title
// actions (the review's Accept / Reject / Next hunk / Accept all / Reject all) only while that group
// is the active one, and a diff opened without the focus beside the person's editor leaves their
// group active: the ✓/✕ were hidden. So beside the person's editor the diff takes the focus, unless
// the person is typing there (their next keystrokes must not land in a read-only diff); then the
// actions appear once they click into the diff, and the panel and the hunks' CodeLens offer them meanwhile.

/** How long after the person's last keystroke or click in their own editor they count as typing. */
export const TYPING_PAUSE_MS = 10_000;

export interface DiffPlacement {
  /** Open in a group beside the active one (rather than in the active group itself). */
  readonly beside: boolean;
  /** Leave the keyboard focus, and with it the active group, where it is. */
  readonly preserveFocus: boolean;
}

/**
 * `personHasEditor`: the active editor is one of the person's files (not a review diff).
 * `msSinceTyped`: time since their last keystroke or click in such an editor (Infinity if never).
 */
export function diffPlacement(personHasEditor: boolean, msSinceTyped: number): DiffPlacement {
  // Without an editor of theirs the diff opens in the active group, which stays active either way.
  if (!personHasEditor) return { beside: false, preserveFocus: true };
  return { beside: true, preserveFocus: msSinceTyped < TYPING_PAUSE_MS };
}
