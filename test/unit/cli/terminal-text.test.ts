// Model text made safe for a terminal and measured in cells.

import assert from 'node:assert/strict';
import { displayWidth, lastCells, terminalSafe } from '../../../src/cli/render/terminal-text';
import type * as TerminalText from '../../../src/cli/render/terminal-text';

describe('terminal text', () => {
  it('builds its grapheme Segmenter on first measure, once (a --json run never loads the break data)', () => {
    const modulePath = require.resolve('../../../src/cli/render/terminal-text');
    const Original = Intl.Segmenter;
    const intl = Intl as { Segmenter: typeof Intl.Segmenter };
    let made = 0;
    intl.Segmenter = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        made += 1;
      }
    };
    const cached = require.cache[modulePath];
    delete require.cache[modulePath];
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const fresh = require(modulePath) as typeof TerminalText;
      assert.equal(fresh.terminalSafe('a\tb'), 'a b');
      assert.equal(made, 0);
      assert.equal(fresh.displayWidth('日本'), 4);
      assert.equal(fresh.lastCells('hello world', 6), '…world');
      assert.equal(made, 1);
    } finally {
      intl.Segmenter = Original;
      if (cached) require.cache[modulePath] = cached;
    }
  });

  it('terminalSafe shows escape sequences and controls as text, keeps newlines, makes tabs spaces', () => {
    assert.equal(terminalSafe('\x1b]0;title\x07a\x1b[1Ab\tc\nd\x00\x9b'), '\\x1b]0;title\\x07a\\x1b[1Ab c\nd\\x00\\x9b');
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

  it('lastCells starts at a whole word: a word cut at its start is left out, unless it is the only one', () => {
    assert.equal(lastCells('hello world', 8), '…world');
    assert.equal(lastCells('the quick brown fox', 12), '…brown fox');
    assert.equal(lastCells('the quick brown fox', 11), '…brown fox');
    assert.equal(lastCells('abcdefghij', 5), '…ghij');
    assert.equal(lastCells('日本語 です', 5), '…です');
  });
});
