// Small files with one job (CONTRIBUTING.md, "Rules a change must keep"): no source file of src/ or
// webview-ui/src/ is longer than 400 lines, counted as an editor counts them, blank lines and comments
// included (lint's max-lines skips those, so a file can pass lint well past 400 lines).

import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..');
const LIMIT = 400;

/** Files over the limit for now, each with why; a waiver for a file back under the limit fails too. */
const WAIVED: Readonly<Record<string, string>> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(name) ? [file] : [];
  });
}

/** Lines as `wc -l` and an editor count them: a final newline ends the last line, it does not start one. */
function lineCount(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

function repoPath(file: string): string {
  return path.relative(REPO, file).split(path.sep).join('/');
}

describe('file size (the house check)', () => {
  const files = [...sourceFiles(path.join(REPO, 'src')), ...sourceFiles(path.join(REPO, 'webview-ui', 'src'))];
  const lengths = new Map(files.map((file) => [repoPath(file), lineCount(readFileSync(file, 'utf8'))]));

  it(`no source file is longer than ${LIMIT} lines`, () => {
    assert.ok(lengths.size > 300, `read ${lengths.size} files`);
    const over = [...lengths]
      .filter(([file, lines]) => lines > LIMIT && !(file in WAIVED))
      .map(([file, lines]) => `${file}: ${lines} lines`);
    assert.deepEqual(over, [], `split these by region, one job per file (CONTRIBUTING.md):\n${over.join('\n')}`);
  });

  it('waives only files that exist and are still over the limit', () => {
    const stale = Object.keys(WAIVED).filter((file) => (lengths.get(file) ?? 0) <= LIMIT);
    assert.deepEqual(stale, []);
  });

  it('counts lines as an editor does', () => {
    assert.equal(lineCount(''), 0);
    assert.equal(lineCount('a'), 1);
    assert.equal(lineCount('a\n'), 1);
    assert.equal(lineCount('a\n\n// c\n'), 3);
    assert.equal(lineCount('x\n'.repeat(LIMIT + 1)), LIMIT + 1);
  });
});
