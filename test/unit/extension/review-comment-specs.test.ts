// The review's comment threads, as data: which issue gets a thread where, with what body, folded or
// open; an issue naming a path the containment check refuses gets none; the model's words are
// escaped so they render as text (no link, command link, HTML, heading or list).

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'mocha';
import type { ReviewIssue, ReviewResult } from '../../../src/core/model';
import { escapeMarkdown, issueCommentSpec, reviewCommentSpecs } from '../../../src/extension/review-comment-specs';

function review(...criticalIssues: ReviewIssue[]): ReviewResult {
  return { score: 6, criticalIssues, suggestions: [], pass: false };
}

describe('review comment threads (the pure part)', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'ironbees-review-comments-'));
  const outside = mkdtempSync(path.join(tmpdir(), 'ironbees-review-outside-'));
  mkdirSync(path.join(root, 'src'), { recursive: true });
  writeFileSync(path.join(root, 'src', 'Calc.cs'), 'class Calc {}\n');
  writeFileSync(path.join(outside, 'Secret.cs'), 'class Secret {}\n');
  symlinkSync(outside, path.join(root, 'linked'));
  after(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('an issue becomes a thread on its file at its line (from 0), with the severity, description and fix', () => {
    const spec = issueCommentSpec(
      root,
      {
        severity: 'major',
        file: 'src/Calc.cs',
        line: 18,
        description: 'Console.WriteLine left in Divide',
        suggestedFix: 'Remove the line',
      },
      6,
    );
    assert.deepEqual(spec, {
      path: 'src/Calc.cs',
      line: 17,
      severity: 'major',
      label: 'Ironbees review: major (score 6/10)',
      body: '**Major**: Console\\.WriteLine left in Divide\n\n**Suggested fix**: Remove the line',
      collapsed: false,
    });
  });

  it('critical and major threads open, minor ones folded; no line means the first line; a tidied path', () => {
    const specs = reviewCommentSpecs(
      root,
      review(
        { severity: 'critical', file: './src\\Calc.cs', description: 'a' },
        { severity: 'major', file: 'src/Calc.cs', line: 3, description: 'b' },
        { severity: 'minor', file: 'src/Calc.cs', line: 1, description: 'c' },
      ),
    );
    assert.deepEqual(
      specs.map((s) => [s.path, s.line, s.severity, s.collapsed, s.body]),
      [
        ['src/Calc.cs', 0, 'critical', false, '**Critical**: a'],
        ['src/Calc.cs', 2, 'major', false, '**Major**: b'],
        ['src/Calc.cs', 0, 'minor', true, '**Minor**: c'],
      ],
    );
  });

  it('refuses, without throwing, every path the workspace check refuses; keeps the others in order', () => {
    const issue = (file: string): ReviewIssue => ({ severity: 'critical', file, line: 1, description: file });
    const specs = reviewCommentSpecs(
      root,
      review(
        issue('../outside/Secret.cs'),
        issue(path.join(outside, 'Secret.cs')),
        issue('linked/Secret.cs'),
        issue('.git/config'),
        issue('.ironbees/runs/x/state.json'),
        issue(''),
        issue('bad\0name.cs'),
        issue('src/Calc.cs'),
      ),
    );
    assert.deepEqual(
      specs.map((s) => s.path),
      ['src/Calc.cs'],
    );
  });

  it('escapes the model’s Markdown: links, command links, HTML, images, headings, lists and autolinks render as text', () => {
    assert.equal(
      escapeMarkdown('[run](command:workbench.action.terminal.new)'),
      '\\[run\\]\\(command\\:workbench\\.action\\.terminal\\.new\\)',
    );
    assert.equal(escapeMarkdown('<img src=x onerror=alert(1)>'), '\\<img src\\=x onerror\\=alert\\(1\\)\\>');
    assert.equal(escapeMarkdown('![x](https://example.com/a.png)'), '\\!\\[x\\]\\(https\\:\\/\\/example\\.com\\/a\\.png\\)');
    assert.equal(
      escapeMarkdown('see https://evil.example and www.evil.example'),
      'see https\\:\\/\\/evil\\.example and www\\.evil\\.example',
    );
    assert.equal(
      escapeMarkdown('&amp; *bold* _it_ `code` ~~s~~ | a |'),
      '\\&amp\\; \\*bold\\* \\_it\\_ \\`code\\` \\~\\~s\\~\\~ \\| a \\|',
    );
    // Each line stays a line (a hard break); a heading, a list and a quote stay text; indentation is kept.
    assert.equal(
      escapeMarkdown('# Title\n- item\r\n> quote\n    code'),
      '\\# Title  \n\\- item  \n\\> quote  \n&nbsp;&nbsp;&nbsp;&nbsp;code',
    );
    assert.equal(escapeMarkdown('a \\ b'), 'a \\\\ b');
  });

  it('escapes the description and the fix in the body, and only those', () => {
    const [spec] = reviewCommentSpecs(
      root,
      review({
        severity: 'minor',
        file: 'src/Calc.cs',
        line: 2,
        description: '**[click](command:x)**',
        suggestedFix: '<b>rm -rf</b>',
      }),
    );
    assert.equal(spec.body, '**Minor**: \\*\\*\\[click\\]\\(command\\:x\\)\\*\\*\n\n**Suggested fix**: \\<b\\>rm \\-rf\\<\\/b\\>');
  });
});
