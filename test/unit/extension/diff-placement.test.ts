// Where a review diff opens: beside the person's editor, taking the focus (so its group is the
// active one and VS Code shows the review's title actions) unless the person is typing there.

import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { TYPING_PAUSE_MS, diffPlacement } from '../../../src/extension/review/diff-placement';

describe('review diff placement', () => {
  it('opens in the active group, leaving the focus, when the person has no editor of theirs open', () => {
    assert.deepEqual(diffPlacement(false, Number.POSITIVE_INFINITY), { beside: false, preserveFocus: true });
    assert.deepEqual(diffPlacement(false, 0), { beside: false, preserveFocus: true });
  });

  it("opens beside the person's editor and takes the focus when they are not typing", () => {
    assert.deepEqual(diffPlacement(true, Number.POSITIVE_INFINITY), { beside: true, preserveFocus: false });
    assert.deepEqual(diffPlacement(true, TYPING_PAUSE_MS), { beside: true, preserveFocus: false });
  });

  it("opens beside the person's editor without the focus while they are typing", () => {
    assert.deepEqual(diffPlacement(true, 0), { beside: true, preserveFocus: true });
    assert.deepEqual(diffPlacement(true, TYPING_PAUSE_MS - 1), { beside: true, preserveFocus: true });
  });
});
