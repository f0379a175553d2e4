// The review bar: "next hunk" walks the proposal hunk by hunk and file by file; in package.json the
// bar's actions and key bindings show only while a review is pending, on either side of the diff.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'mocha';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { hunkAt, nextHunk } from '../../../src/extension/review/hunk-navigation';
import { HUNK_ACTIONS, REVIEW_ACTIONS, keyLabel } from '../../../src/extension/review/review-keys';
import { ReviewModel } from '../../../src/core/workspace/review-model';

const ORIGINAL = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const PROPOSED = ORIGINAL.replace('line 5\n', 'line five\n').replace('line 30\n', 'line thirty\n');

function review(): ReviewModel {
  return new ReviewModel('run-1', [makeFileEdit('src/A.cs', ORIGINAL, PROPOSED), makeFileEdit('src/New.cs', null, 'class New {}\n')]);
}

describe('review bar: next hunk', () => {
  it('goes to the next hunk in the file, then the next file, then wraps', () => {
    const r = review();
    assert.deepEqual(nextHunk(r, undefined, -1), { filePath: 'src/A.cs', line: 4 });
    assert.deepEqual(nextHunk(r, 'src/A.cs', 4), { filePath: 'src/A.cs', line: 29 });
    assert.deepEqual(nextHunk(r, 'src/A.cs', 29), { filePath: 'src/New.cs', line: 0 });
    assert.deepEqual(nextHunk(r, 'src/New.cs', 0), { filePath: 'src/A.cs', line: 4 });
  });

  it('prefers files still waiting for a verdict', () => {
    const r = review();
    r.setFile('src/New.cs', true);
    assert.deepEqual(nextHunk(r, 'src/A.cs', 29), { filePath: 'src/A.cs', line: 4 });
  });
});

interface Contributed {
  command: string;
  when?: string;
  key?: string;
}

describe('review bar: the hunk at the cursor', () => {
  it('the hunk whose lines hold the cursor, on either side, else the nearest', () => {
    const r = review();
    // Hunk 1 shows lines 2–8 (0-based 1–7) on both sides, hunk 2 lines 27–33 (0-based 26–32).
    assert.equal(hunkAt(r, 'src/A.cs', 'proposed', 4), 0);
    assert.equal(hunkAt(r, 'src/A.cs', 'original', 7), 0);
    assert.equal(hunkAt(r, 'src/A.cs', 'proposed', 29), 1);
    assert.equal(hunkAt(r, 'src/A.cs', 'proposed', 8), 0, 'one line below hunk 1');
    assert.equal(hunkAt(r, 'src/A.cs', 'original', 25), 1, 'one line above hunk 2');
    assert.equal(hunkAt(r, 'src/A.cs', 'proposed', 0), 0);
    assert.equal(hunkAt(r, 'src/A.cs', 'proposed', 39), 1);
    assert.equal(hunkAt(r, 'src/New.cs', 'proposed', 0), 0);
    assert.equal(hunkAt(r, 'src/Unknown.cs', 'proposed', 0), null);
  });
});

describe('review bar: labels', () => {
  it('names each key as the platform writes it', () => {
    assert.equal(keyLabel(REVIEW_ACTIONS[0], 'linux'), 'Ctrl+Alt+Y');
    assert.equal(keyLabel(REVIEW_ACTIONS[0], 'win32'), 'Ctrl+Alt+Y');
    assert.equal(keyLabel(REVIEW_ACTIONS[0], 'darwin'), '⌥⌘Y');
    assert.equal(keyLabel(REVIEW_ACTIONS[2], 'linux'), 'Ctrl+Alt+↓');
    assert.equal(keyLabel(REVIEW_ACTIONS[3], 'darwin'), '⌥⇧⌘Y');
    assert.equal(keyLabel(HUNK_ACTIONS.reject, 'linux'), 'Ctrl+Alt+R');
  });
});

describe('package.json review bar', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    contributes: { commands: { command: string }[]; keybindings: Contributed[]; menus: Record<string, Contributed[]> };
  };
  const REVIEW_COMMANDS = ['ironbees.acceptFile', 'ironbees.rejectFile', 'ironbees.nextHunk', 'ironbees.acceptAll', 'ironbees.rejectAll'];

  it('shows ✓/✕ and the bar in the diff title only while a review is pending, on either side of the diff', () => {
    const title = manifest.contributes.menus['editor/title'].filter((item) => REVIEW_COMMANDS.includes(item.command));
    assert.deepEqual(title.map((item) => item.command).sort(), [...REVIEW_COMMANDS].sort());
    for (const item of title) {
      assert.match(item.when ?? '', /^ironbees\.reviewing && /, `${item.command} must need a pending review`);
      const scheme = /resourceScheme =~ \/(.+)\/$/.exec(item.when ?? '')?.[1];
      assert.ok(scheme, item.when);
      const re = new RegExp(scheme);
      assert.ok(re.test('ironbees-proposed') && re.test('ironbees-original'), 'both sides of the diff');
      assert.ok(!re.test('file'), 'not on the person’s own editor');
    }
  });

  it('binds a key to each bar action, only while reviewing, to a declared command', () => {
    const declared = new Set(manifest.contributes.commands.map((c) => c.command));
    const bound = manifest.contributes.keybindings.filter((k) => REVIEW_COMMANDS.includes(k.command));
    assert.deepEqual(bound.map((k) => k.command).sort(), [...REVIEW_COMMANDS].sort());
    for (const k of bound) {
      assert.ok(declared.has(k.command), k.command);
      assert.match(k.when ?? '', /^ironbees\.reviewing\b/);
      assert.ok(k.key, `${k.command} has a key`);
    }
    assert.equal(new Set(bound.map((k) => k.key)).size, bound.length, 'no two actions share a key');
  });

  it('the labels above each file name the keys package.json binds, and each hunk action has a key at the cursor', () => {
    const labelled = [...REVIEW_ACTIONS, HUNK_ACTIONS.accept, HUNK_ACTIONS.reject];
    for (const action of labelled) {
      const binding = manifest.contributes.keybindings.find((k) => k.command === action.command) as
        (Contributed & { mac?: string }) | undefined;
      assert.deepEqual(binding && { key: binding.key, mac: binding.mac }, { key: action.key, mac: action.mac }, action.command);
      assert.match(binding?.when ?? '', /^ironbees\.reviewing\b/);
    }
    const keys = manifest.contributes.keybindings.filter((k) => k.when?.startsWith('ironbees.reviewing')).map((k) => k.key);
    assert.equal(new Set(keys).size, keys.length, 'no two review actions share a key');
  });
});
