// Model text made safe for a terminal and measured in cells.

import assert from 'node:assert/strict';
import { displayWidth, lastCells, terminalSafe } from '../../../src/cli/render/terminal-text';

describe('terminal text', () => {
  it('terminalSafe removes escape sequences and controls, keeps newlines, makes tabs spaces', () => {
    assert.equal(terminalSafe('\x1b]0;title\x07a\x1b[1Ab\tc\r\nd\x00\x9b'), 'ab c\nd');
  });

  it('displayWidth: wide characters and emoji take two cells, combining marks none', () => {
    assert.equal(displayWidth('abc'), 3);
    assert.equal(displayWidth('日本'), 4);
    assert.equal(displayWidth('e\u0301'), 1);
    assert.equal(displayWidth('ok 👍'), 5);
  });

  it('lastCells keeps the newest words that fit, led by an ellipsis', () => {
    assert.equal(lastCells('hello world', 11), 'hello world');
    assert.equal(lastCells('hello world', 6), '…world');
    assert.equal(lastCells('日本語です', 5), '…です');
    assert.equal(lastCells('日本語です', 6), '…です');
    assert.equal(lastCells('anything', 0), '');
  });
});
