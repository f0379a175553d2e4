// Comments say what and why: never the history of a change (a stop id, an issue number, a design seed
// outside the repository) nor a measured time, which drifts with every machine. Those belong in
// CHANGELOG.md and bench/README.md. Every comment of src/ and webview-ui/src/ is read with the
// TypeScript parser (so strings and templates are not mistaken for comments) and checked.

import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const REPO = path.resolve(__dirname, '..', '..', '..');

const COMMENT_RULES: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  // "P20c", "stop 19", "stops 18–20", "issue 15", "issue #15", "seed 004".
  { what: 'a stop id', pattern: /\bP\d{1,3}[a-z]?\b|\b[Ss]tops? \d+|\b[Ii]ssues? #?\d+|\b[Ss]eed \d{2,}/ },
  // "~5 ms", "about 60 ms", "(≈ 0.3 s)", "70–130 ms", "5 ms to load".
  {
    what: 'a measured time',
    pattern:
      /(~|≈|\babout |\baround |\broughly |\bnearly )\s*\d[\d.,]*\s*(ms|µs|s|sec|seconds|milliseconds)\b|\d[\d.,]*\s*[–-]\s*\d[\d.,]*\s*(ms|µs)\b|\d[\d.,]*\s*(ms|µs) (to load|of (every|a|the|its))/i,
  },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(name) ? [file] : [];
  });
}

/** Every comment of a TypeScript file, with its first line number. */
function commentsOf(file: string, text = readFileSync(file, 'utf8')): Array<{ line: number; text: string }> {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found = new Map<number, string>();
  const add = (ranges: ts.CommentRange[] | undefined): void => {
    for (const range of ranges ?? []) found.set(range.pos, text.slice(range.pos, range.end));
  };
  // The trivia before each node and after it (up to the next token) holds every comment of the file.
  const visit = (node: ts.Node): void => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getLeadingCommentRanges(text, node.end));
    add(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found]
    .sort(([a], [b]) => a - b)
    .map(([pos, comment]) => ({ line: source.getLineAndCharacterOfPosition(pos).line + 1, text: comment }));
}

/** What the rules find in the comments of `file`: `path:line: what: the words`. */
function commentProblems(file: string, text?: string): string[] {
  return commentsOf(file, text).flatMap((comment) =>
    COMMENT_RULES.flatMap(({ what, pattern }) => {
      const match = pattern.exec(comment.text);
      return match ? [`${path.relative(REPO, file)}:${comment.line}: ${what}: "${match[0]}"`] : [];
    }),
  );
}

describe('comments', function () {
  this.timeout(120_000);

  it('no comment in src/ or webview-ui/src/ carries a stop id or a measured time', () => {
    const files = [...sourceFiles(path.join(REPO, 'src')), ...sourceFiles(path.join(REPO, 'webview-ui', 'src'))];
    assert.ok(files.length > 200, `the scan sees the sources: ${files.length} files`);
    assert.deepEqual(
      files.flatMap((file) => commentProblems(file)),
      [],
    );
  });

  it('finds each kind in a comment, and nothing in strings, templates or code', () => {
    const file = path.join(REPO, 'src', 'probe.ts');
    const text = [
      '// found by P20c; the p95 latency stays',
      '/* since stop 19 */',
      '/** see issue #15 */',
      'const a = 1; // loading it is ~5 ms of a start',
      '// the first call takes about 60 ms',
      '// 70–130 ms of a run',
      "const s = 'P20c stop 19 ~5 ms';",
      'const t = `issue 15 about 60 ms ${a}`;',
      '// a timeout of 500 ms, retried after 2 s',
      'function f(): void {',
      '  g();',
      '  // since stop 20, before a closing brace',
      '}',
    ].join('\n');
    assert.deepEqual(commentProblems(file, text), [
      'src/probe.ts:1: a stop id: "P20c"',
      'src/probe.ts:2: a stop id: "stop 19"',
      'src/probe.ts:3: a stop id: "issue #15"',
      'src/probe.ts:4: a measured time: "~5 ms"',
      'src/probe.ts:5: a measured time: "about 60 ms"',
      'src/probe.ts:6: a measured time: "70–130 ms"',
      'src/probe.ts:12: a stop id: "stop 20"',
    ]);
  });
});
