import * as assert from 'node:assert/strict';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { ToolContext, ToolOutcome } from '../../../src/core/tools/types';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import { textEditorTool } from '../../../src/core/tools/workspace/text-editor';
import { memoryHost, toolContext } from './memory-host';

const CALC = [
  'namespace Calc;',
  '',
  'public class Calculator',
  '{',
  '    public int Add(int a, int b) => a - b;',
  '    public int Sub(int a, int b) => a - b;',
  '}',
  '',
].join('\n');

describe('text editor tool (str_replace_based_edit_tool)', () => {
  const registry = new ToolRegistry().register(textEditorTool);
  let ctx: ToolContext;
  const call = (input: Record<string, unknown>): Promise<ToolOutcome> => registry.execute(textEditorTool, input, ctx);
  const ok = async (input: Record<string, unknown>): Promise<string> => {
    const outcome = await call(input);
    assert.ok(outcome.ok, `expected success, got: ${outcome.ok ? '' : outcome.error}`);
    return outcome.content;
  };
  const fails = async (input: Record<string, unknown>, pattern: RegExp): Promise<void> => {
    const outcome = await call(input);
    assert.equal(outcome.ok, false, `expected an error for ${JSON.stringify(input)}`);
    if (!outcome.ok) assert.match(outcome.error, pattern);
  };

  beforeEach(() => {
    const host = memoryHost({ 'src/Calculator.cs': CALC, 'src/Win.cs': 'class W\r\n{\r\n    int a;\r\n}\r\n', 'README.md': '# readme\n' });
    ctx = toolContext(host);
  });

  describe('view', () => {
    it('shows a file with cat -n style line numbers', async () => {
      const out = await ok({ command: 'view', path: 'src/Calculator.cs' });
      assert.match(
        out,
        /^Here's the content of src\/Calculator\.cs with line numbers:\n {5}1\tnamespace Calc;\n {5}2\t\n {5}3\tpublic class Calculator\n/,
      );
      assert.match(out, / {5}7\t\}$/);
    });

    it('honours view_range, with -1 meaning to the end, and accepts numbers as strings', async () => {
      assert.equal(
        await ok({ command: 'view', path: 'src/Calculator.cs', view_range: [3, 4] }),
        "Here's the content of src/Calculator.cs with line numbers:\n     3\tpublic class Calculator\n     4\t{",
      );
      const tail = await ok({ command: 'view', path: 'src/Calculator.cs', view_range: ['6', '-1'] });
      assert.match(tail, / {5}6\t {4}public int Sub.*\n {5}7\t\}$/);
      const fromJsonText = await ok({ command: 'view', path: 'src/Calculator.cs', view_range: '[1, 1]' });
      assert.match(fromJsonText, / {5}1\tnamespace Calc;$/);
    });

    it('explains a bad view_range', async () => {
      await fails(
        { command: 'view', path: 'src/Calculator.cs', view_range: [0, 3] },
        /start 0 is outside .* 7 lines; use a start from 1 to 7/,
      );
      await fails({ command: 'view', path: 'src/Calculator.cs', view_range: [50, -1] }, /start 50 is outside/);
      await fails({ command: 'view', path: 'src/Calculator.cs', view_range: [5, 2] }, /end 2 is before its start 5/);
      await fails({ command: 'view', path: 'src/Calculator.cs', view_range: [1] }, /view_range/);
      const clamped = await ok({ command: 'view', path: 'src/Calculator.cs', view_range: [6, 100] });
      assert.match(clamped, /has only 7 lines/);
    });

    it('lists a folder two levels deep, with staged files', async () => {
      await ok({ command: 'create', path: 'src/Deep/Er/New.cs', file_text: 'x' });
      const out = await ok({ command: 'view', path: '.' });
      assert.match(out, /^Files and folders up to 2 levels deep in \./);
      const entries = out.split('\n').slice(1);
      assert.deepEqual(entries, ['README.md', 'src/', 'src/Calculator.cs', 'src/Deep/', 'src/Win.cs']);
    });

    it('says when a path does not exist, and suggests close names', async () => {
      await fails({ command: 'view', path: 'Calculator.cs' }, /does not exist\. Did you mean: src\/Calculator\.cs\?/);
      await fails({ command: 'view', path: 'nothing/here.txt' }, /Use list_files/);
    });

    it('truncates a huge file and says how to see the rest', async () => {
      const big = Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ${'x'.repeat(40)}`).join('\n');
      await ok({ command: 'create', path: 'big.txt', file_text: big });
      const out = await ok({ command: 'view', path: 'big.txt' });
      const match = /Output truncated after line (\d+) of 5000\. View the rest with view_range \[(\d+), -1\]/.exec(out);
      assert.ok(match, out.slice(-200));
      assert.equal(Number(match[2]), Number(match[1]) + 1);
      assert.ok(out.length < 45_000);
    });
  });

  describe('create', () => {
    it('creates a new file on the overlay only', async () => {
      assert.equal(
        await ok({ command: 'create', path: 'src/New.cs', file_text: 'class N {}\n' }),
        'File created successfully at: src/New.cs',
      );
      assert.equal(await ctx.overlay.read('src/New.cs'), 'class N {}\n');
      assert.equal((ctx.host.fs as unknown as { writes: number }).writes, 0);
    });

    it('refuses a file of the workspace, naming it and its line count, even after it was edited', async () => {
      const outcome = await call({ command: 'create', path: 'src/Calculator.cs', file_text: '// ...existing code...\n' });
      assert.deepEqual(outcome, {
        ok: false,
        kind: 'InvalidInput',
        error:
          'src/Calculator.cs already exists (7 lines); create only makes new files and never overwrites one. ' +
          'View it (view, with view_range for a part) and change it with str_replace or insert.',
      });
      await ok({ command: 'insert', path: 'README.md', insert_line: 1, insert_text: 'more' });
      await fails(
        { command: 'create', path: 'README.md', file_text: '# new\n' },
        /^README\.md already exists \(1 line\); create only makes new files/,
      );
      assert.equal(await ctx.overlay.read('src/Calculator.cs'), CALC, 'the file is unchanged');
      assert.equal(await ctx.overlay.read('README.md'), '# readme\nmore\n');
    });

    it('may write again a file this attempt created, saying the line counts', async () => {
      await ok({ command: 'create', path: 'src/New.cs', file_text: 'class N\n{\n}\n' });
      assert.equal(
        await ok({ command: 'create', path: 'src/New.cs', file_text: 'class N {}\n' }),
        'File overwritten: src/New.cs (a new file of this attempt; 3 → 1 lines)',
      );
      assert.equal(await ctx.overlay.read('src/New.cs'), 'class N {}\n');
    });

    it('needs file_text, and refuses folders and paths outside the workspace', async () => {
      await fails({ command: 'create', path: 'x.cs' }, /file_text: create needs file_text/);
      await fails({ command: 'create', path: 'src', file_text: 'x' }, /src is a folder/);
      await fails({ command: 'create', path: '../x.cs', file_text: 'x' }, /Refused path "\.\.\/x\.cs": it leads outside the workspace/);
      await fails({ command: 'create', path: '.git/hooks/pre-commit', file_text: 'x' }, /\.git\/ belongs to the tooling/);
    });
  });

  describe('delete', () => {
    it('stages the removal of a file, which the edits then carry as a DELETE; refuses folders and missing files', async () => {
      assert.equal(
        await ok({ command: 'delete', path: 'src/Win.cs' }),
        'File deleted (staged): src/Win.cs (it had 4 lines). The person reviews the deletion with the other changes.',
      );
      assert.equal(await ctx.overlay.read('src/Win.cs'), null);
      const edits = await ctx.overlay.edits();
      assert.deepEqual(
        edits.map((edit) => [edit.filePath, edit.type, edit.newContent]),
        [['src/Win.cs', 'DELETE', null]],
      );
      await fails({ command: 'delete', path: 'src/Win.cs' }, /The path src\/Win\.cs does not exist/);
      await fails({ command: 'delete', path: 'src' }, /src is a folder; delete removes one file at a time/);
      assert.equal((ctx.host.fs as unknown as { writes: number }).writes, 0);
    });
  });

  describe('str_replace', () => {
    it('replaces exactly one match and shows the edited part', async () => {
      const out = await ok({
        command: 'str_replace',
        path: 'src/Calculator.cs',
        old_str: 'int Add(int a, int b) => a - b;',
        new_str: 'int Add(int a, int b) => a + b;',
      });
      assert.match(out, /has been edited \(staged\)/);
      assert.match(out, / {5}5\t {4}public int Add\(int a, int b\) => a \+ b;/);
      assert.match(
        (await ctx.overlay.read('src/Calculator.cs')) ?? '',
        /Add\(int a, int b\) => a \+ b;\n {4}public int Sub\(int a, int b\) => a - b;/,
      );
    });

    it('refuses zero matches, with a hint about the closest line', async () => {
      await fails(
        { command: 'str_replace', path: 'src/Calculator.cs', old_str: 'public int Add(int x, int y) => a - b;', new_str: '' },
        /did not appear verbatim in src\/Calculator\.cs\. The closest line to the start of old_str is line 5: "public int Add\(int a, int b\) => a - b;"/,
      );
      assert.equal(await ctx.overlay.read('src/Calculator.cs'), CALC);
    });

    it('points out a match that differs only in whitespace', async () => {
      await fails(
        {
          command: 'str_replace',
          path: 'src/Calculator.cs',
          old_str: 'public class Calculator\n{\n  public int Add(int a, int b) => a - b;',
          new_str: 'x',
        },
        /matches lines 3-5 if indentation and spacing are ignored/,
      );
    });

    it('notices line numbers copied from view output', async () => {
      await fails(
        { command: 'str_replace', path: 'src/Calculator.cs', old_str: '     3\tpublic class Calculator', new_str: 'x' },
        /line number copied from view output/,
      );
    });

    it('refuses several matches, saying how many and where', async () => {
      await fails(
        { command: 'str_replace', path: 'src/Calculator.cs', old_str: '=> a - b;', new_str: '=> a + b;' },
        /old_str occurs 2 times in src\/Calculator\.cs, at lines 5, 6\. Include enough surrounding lines/,
      );
      assert.equal(await ctx.overlay.read('src/Calculator.cs'), CALC);
    });

    it('refuses an empty old_str and a missing file', async () => {
      await fails({ command: 'str_replace', path: 'src/Calculator.cs', old_str: '', new_str: 'x' }, /old_str is empty/);
      await fails({ command: 'str_replace', path: 'src/Nope.cs', old_str: 'a', new_str: 'b' }, /does not exist.*use the create command/);
      await fails({ command: 'str_replace', path: 'src/Calculator.cs' }, /old_str: str_replace needs old_str/);
    });

    it('deletes the text when new_str is absent', async () => {
      await ok({ command: 'str_replace', path: 'README.md', old_str: ' readme' });
      assert.equal(await ctx.overlay.read('README.md'), '#\n');
    });

    it('treats $ patterns in new_str literally', async () => {
      await ok({ command: 'str_replace', path: 'README.md', old_str: 'readme', new_str: "$& $1 $$ $'" });
      assert.equal(await ctx.overlay.read('README.md'), "# $& $1 $$ $'\n");
    });

    it('matches CRLF files against LF text and writes CRLF back', async () => {
      await ok({ command: 'str_replace', path: 'src/Win.cs', old_str: '{\n    int a;\n}', new_str: '{\n    int a;\n    int b;\n}' });
      const [edit] = await ctx.overlay.edits();
      assert.equal(edit.newContent, 'class W\r\n{\r\n    int a;\r\n    int b;\r\n}\r\n');
      // A model that sends CRLF gets the same result.
      await ok({ command: 'str_replace', path: 'src/Win.cs', old_str: 'int b;\r\n}', new_str: 'int c;\r\n}' });
      const [again] = await ctx.overlay.edits();
      assert.equal(again.newContent, 'class W\r\n{\r\n    int a;\r\n    int c;\r\n}\r\n');
    });
  });

  describe('insert', () => {
    it('inserts at the top with insert_line 0', async () => {
      await ok({ command: 'insert', path: 'src/Calculator.cs', insert_line: 0, insert_text: 'using System;' });
      assert.equal((await ctx.overlay.read('src/Calculator.cs'))?.split('\n').slice(0, 2).join('|'), 'using System;|namespace Calc;');
    });

    it('inserts after the last line, and a trailing newline in insert_text adds no blank line', async () => {
      const out = await ok({ command: 'insert', path: 'src/Calculator.cs', insert_line: 7, insert_text: '// end\n' });
      assert.match(out, / {5}8\t\/\/ end/);
      assert.equal(await ctx.overlay.read('src/Calculator.cs'), `${CALC}// end\n`);
    });

    it('inserts in the middle, accepting new_str as an alias and the line as a string', async () => {
      await ok({ command: 'insert', path: 'src/Calculator.cs', insert_line: '4', new_str: '    // first member\n    // second' });
      const lines = (await ctx.overlay.read('src/Calculator.cs'))?.split('\n') ?? [];
      assert.deepEqual(lines.slice(3, 7), ['{', '    // first member', '    // second', '    public int Add(int a, int b) => a - b;']);
    });

    it('keeps a missing final newline missing and CRLF endings intact', async () => {
      await ok({ command: 'create', path: 'nofinal.txt', file_text: 'a\nb' });
      await ok({ command: 'insert', path: 'nofinal.txt', insert_line: 1, insert_text: 'x' });
      assert.equal(await ctx.overlay.read('nofinal.txt'), 'a\nx\nb');
      await ok({ command: 'insert', path: 'src/Win.cs', insert_line: 2, insert_text: '    int z;' });
      const [edit] = (await ctx.overlay.edits()).filter((e) => e.filePath === 'src/Win.cs');
      assert.equal(edit.newContent, 'class W\r\n{\r\n    int z;\r\n    int a;\r\n}\r\n');
    });

    it('refuses a line out of range, saying the valid range', async () => {
      await fails(
        { command: 'insert', path: 'src/Calculator.cs', insert_line: 8, insert_text: 'x' },
        /insert_line 8 is out of range: src\/Calculator\.cs has 7 lines, so use 0 \(top\) to 7 \(end\)/,
      );
      await fails({ command: 'insert', path: 'src/Calculator.cs', insert_line: -1, insert_text: 'x' }, /out of range/);
      await fails({ command: 'insert', path: 'src/Calculator.cs', insert_text: 'x' }, /insert_line: insert needs insert_line/);
      await fails({ command: 'insert', path: 'src/Calculator.cs', insert_line: 1 }, /insert_text: insert needs insert_text/);
    });
  });

  it('rejects unknown commands such as undo_edit with the list of valid ones', async () => {
    await fails({ command: 'undo_edit', path: 'README.md' }, /command must be one of view, create, str_replace, insert, delete/);
  });

  it('works on an overlay that already has staged work from another call', async () => {
    const overlay = new StagedOverlay(ctx.host);
    await overlay.write('README.md', '# staged\n');
    ctx = toolContext(ctx.host, overlay);
    assert.match(await ok({ command: 'view', path: 'README.md' }), /1\t# staged/);
  });
});
