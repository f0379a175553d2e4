import * as assert from 'node:assert/strict';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { ToolContext, ToolDefinition, ToolOutcome } from '../../../src/core/tools/types';
import { GlobPatternError, MAX_ALTERNATIVES, compileGlob, matchesGlob } from '../../../src/core/workspace/glob';
import { listFilesTool } from '../../../src/core/tools/workspace/list-files';
import { readFileTool } from '../../../src/core/tools/workspace/read-file';
import { searchTextTool } from '../../../src/core/tools/workspace/search-text';
import { memoryHost, toolContext } from './memory-host';

const registry = new ToolRegistry().register(readFileTool).register(listFilesTool).register(searchTextTool);

function numbered(n: number): string {
  return Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
}

describe('read-only workspace tools', () => {
  let ctx: ToolContext;
  const run = (tool: ToolDefinition, input: unknown): Promise<ToolOutcome> => registry.execute(tool, input, ctx);
  const ok = async (tool: ToolDefinition, input: unknown): Promise<string> => {
    const outcome = await run(tool, input);
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
    return outcome.content;
  };
  const fails = async (tool: ToolDefinition, input: unknown, pattern: RegExp): Promise<void> => {
    const outcome = await run(tool, input);
    assert.equal(outcome.ok, false);
    if (!outcome.ok) assert.match(outcome.error, pattern);
  };

  beforeEach(() => {
    ctx = toolContext(
      memoryHost({
        'Calc.sln': 'sln',
        'src/Calc/Calculator.cs': 'namespace Calc;\npublic class Calculator\n{\n    public int Add(int a, int b) => a - b;\n}\n',
        'src/Calc/Calc.csproj': '<Project />',
        'src/Calc/obj/Debug/Generated.cs': 'class Generated { int Add; }',
        'src/Calc/bin/Debug/Calc.dll.config': 'Add',
        'tests/Calc.Tests/CalculatorTests.cs':
          'public class CalculatorTests\n{\n    [Fact] public void Add_Works() => Assert.Equal(3, new Calculator().Add(1, 2));\n}\n',
        'node_modules/pkg/index.js': 'Add',
        'long.txt': numbered(1000),
        'Win.txt': 'alpha\r\nbeta\r\n',
      }),
    );
  });

  describe('read_file', () => {
    it('returns numbered lines with a header', async () => {
      const out = await ok(readFileTool, { path: 'src/Calc/Calculator.cs' });
      assert.equal(out.split('\n')[0], 'src/Calc/Calculator.cs (lines 1-5 of 5)');
      assert.match(out, /\n {5}4\t {4}public int Add/);
      assert.doesNotMatch(out, /Truncated/);
    });

    it('pages long files and says how to get the next page', async () => {
      const first = await ok(readFileTool, { path: 'long.txt' });
      assert.match(first, /^long\.txt \(lines 1-400 of 1000\)/);
      assert.match(first, /Call read_file with offset=401 for the next page\.\]$/);
      const page = await ok(readFileTool, { path: 'long.txt', offset: '990', limit: '5' });
      assert.match(page, /^long\.txt \(lines 990-994 of 1000\)\n {3}990\tline 990\n/);
      assert.match(page, /offset=995/);
      const last = await ok(readFileTool, { path: 'long.txt', offset: 999 });
      assert.match(last, /lines 999-1000 of 1000/);
      assert.doesNotMatch(last, /Truncated/);
    });

    it('shows CRLF files without carriage returns', async () => {
      assert.equal(await ok(readFileTool, { path: 'Win.txt' }), 'Win.txt (lines 1-2 of 2)\n     1\talpha\n     2\tbeta');
    });

    it('sees staged edits', async () => {
      await ctx.overlay.write('src/Calc/Calculator.cs', 'staged\n');
      assert.match(await ok(readFileTool, { path: 'src/Calc/Calculator.cs' }), /1\tstaged/);
    });

    it('explains missing files, folders, bad offsets and bad arguments', async () => {
      await fails(
        readFileTool,
        { path: 'Calculator.cs' },
        /does not exist\. Did you mean: src\/Calc\/Calculator\.cs, tests\/Calc\.Tests\/CalculatorTests\.cs\?/,
      );
      await fails(readFileTool, { path: 'src' }, /is a folder, not a file; use list_files/);
      await fails(readFileTool, { path: 'long.txt', offset: 1001 }, /offset 1001 is outside long\.txt, which has 1000 lines/);
      await fails(readFileTool, { path: 'long.txt', offset: 'ten' }, /offset: Invalid input: expected number/);
      await fails(readFileTool, {}, /path: path is required/);
      await fails(readFileTool, { path: '../../etc/passwd' }, /Refused path/);
    });
  });

  describe('list_files', () => {
    it('lists the workspace without build output and tool folders', async () => {
      const out = await ok(listFilesTool, {});
      assert.deepEqual(out.split('\n'), [
        '6 file(s) in .:',
        'Calc.sln',
        'Win.txt',
        'long.txt',
        'src/Calc/Calc.csproj',
        'src/Calc/Calculator.cs',
        'tests/Calc.Tests/CalculatorTests.cs',
      ]);
    });

    it('filters by glob, relative to the folder, and by file name anywhere', async () => {
      assert.match(
        await ok(listFilesTool, { pattern: '**/*.cs' }),
        /^2 file\(s\) in \. matching \*\*\/\*\.cs:\nsrc\/Calc\/Calculator\.cs\ntests\/Calc\.Tests\/CalculatorTests\.cs$/,
      );
      assert.match(await ok(listFilesTool, { pattern: '*Tests.cs' }), /^1 file\(s\).*\ntests\/Calc\.Tests\/CalculatorTests\.cs$/);
      assert.match(await ok(listFilesTool, { path: 'src', pattern: 'Calc/*.csproj' }), /\nsrc\/Calc\/Calc\.csproj$/);
      assert.match(await ok(listFilesTool, { pattern: '*.{sln,csproj}' }), /^2 file\(s\)/);
      // A pattern that backtracks for minutes as a RegExp: the exact answer, at once.
      const pathological = `${'{*,*}'.repeat(9)}Z`;
      assert.equal(
        await ok(listFilesTool, { pattern: pathological }),
        `No files in . matching ${pathological}. Try a broader pattern, e.g. "**/*.cs".`,
      );
      assert.equal(
        await ok(listFilesTool, { pattern: `${'{*,*}'.repeat(9)}.SLN` }),
        `1 file(s) in . matching ${'{*,*}'.repeat(9)}.SLN:\nCalc.sln`,
      );
      await fails(
        listFilesTool,
        { pattern: '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}' },
        /^pattern: The pattern's braces make more than 64 alternatives/,
      );
      await fails(
        searchTextTool,
        { query: 'Add', filePattern: '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}' },
        /^filePattern: The pattern's braces make more than 64 alternatives/,
      );
      assert.match(await ok(listFilesTool, { pattern: '*.fs' }), /No files in \. matching \*\.fs\. Try a broader pattern/);
    });

    it('bounds the result and says how many were left out', async () => {
      const out = await ok(listFilesTool, { maxResults: '2' });
      assert.match(out, /^6 file\(s\) in \.:\nCalc\.sln\nWin\.txt\n\[4 more not shown; narrow with path or pattern/);
    });

    it('includes staged creations and leaves out staged deletions', async () => {
      await ctx.overlay.write('src/Calc/New.cs', 'x');
      await ctx.overlay.delete('long.txt');
      const out = await ok(listFilesTool, {});
      assert.match(out, /src\/Calc\/New\.cs/);
      assert.doesNotMatch(out, /long\.txt/);
    });

    it('explains a missing folder', async () => {
      await fails(listFilesTool, { path: 'nope' }, /The path nope does not exist/);
    });
  });

  describe('search_text', () => {
    it('finds matches as path:line: text, skipping bin, obj and node_modules', async () => {
      const out = await ok(searchTextTool, { query: 'add(' });
      assert.deepEqual(out.split('\n'), [
        '2 match(es) for "add(" in .:',
        'src/Calc/Calculator.cs:4: public int Add(int a, int b) => a - b;',
        'tests/Calc.Tests/CalculatorTests.cs:3: [Fact] public void Add_Works() => Assert.Equal(3, new Calculator().Add(1, 2));',
      ]);
    });

    it('supports case-sensitive and regex searches, and explains a bad regex', async () => {
      assert.match(await ok(searchTextTool, { query: 'ADD', caseSensitive: 'true' }), /^No matches/);
      assert.match(await ok(searchTextTool, { query: 'public \\w+ Add\\(', isRegex: true }), /^1 match\(es\)/);
      await fails(searchTextTool, { query: 'Add(', isRegex: true }, /not a valid regular expression.*set isRegex to false/);
    });

    it('says so when a literal search that finds nothing reads like a regular expression', async () => {
      const hint =
        ' The query looks like a regular expression, but it was searched for as literal text: to use it as a regular expression, call search_text again with isRegex: true.';
      for (const query of ['class \\w+Service', 'Add.*int', 'Add|Sub', 'Add[A-Z]', '^public']) {
        assert.equal(await ok(searchTextTool, { query }), `No matches for ${JSON.stringify(query)} in ..${hint}`, query);
      }
      assert.equal(await ok(searchTextTool, { query: 'NoSuchName' }), 'No matches for "NoSuchName" in ..', 'plain text: no hint');
      assert.equal(
        await ok(searchTextTool, { query: 'Nope(int a)' }),
        'No matches for "Nope(int a)" in ..',
        'a call with parentheses is text',
      );
      assert.equal(
        await ok(searchTextTool, { query: 'Nope\\w+', isRegex: true }),
        'No matches for "Nope\\\\w+" in ..',
        'already a regex: no hint',
      );
    });

    it('restricts to a folder, a single file, or a file pattern', async () => {
      assert.match(await ok(searchTextTool, { query: 'Add', path: 'tests' }), /^1 match/);
      assert.match(await ok(searchTextTool, { query: 'line 7', path: 'long.txt' }), /^111 match\(es\)/);
      assert.match(await ok(searchTextTool, { query: 'Calc', filePattern: '*.csproj' }), /^No matches/);
      assert.match(await ok(searchTextTool, { query: 'Project', filePattern: '*.csproj' }), /^1 match/);
    });

    it('bounds the matches and says how many more there are', async () => {
      const out = await ok(searchTextTool, { query: 'line', path: 'long.txt', maxResults: 3 });
      assert.match(
        out,
        /^1000 match\(es\) for "line" in long\.txt:\nlong\.txt:1: line 1\nlong\.txt:2: line 2\nlong\.txt:3: line 3\n\[997 more matches not shown/,
      );
    });

    it('sees staged edits and skips binary files', async () => {
      await ctx.overlay.write('src/Calc/Calculator.cs', 'public int Multiply() => 0;\n');
      (ctx.host.fs as unknown as { put(rel: string, c: Uint8Array): void }).put('blob.bin', new Uint8Array([0, 1, 2, 77, 117, 108]));
      const out = await ok(searchTextTool, { query: 'Multiply' });
      assert.match(out, /src\/Calc\/Calculator\.cs:1: public int Multiply/);
      assert.match(out, /1 binary, non-UTF-8 or very large file\(s\) were skipped/);
    });

    it('stops early when the call is aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      const outcome = await searchTextTool.execute(searchTextTool.input.parse({ query: 'line' }), { ...ctx, signal: controller.signal });
      assert.ok(outcome.ok);
      assert.match(outcome.content, /stopped before it finished/);
    });

    it('needs a query', async () => {
      await fails(searchTextTool, { query: '' }, /query: query is required/);
    });
  });
});

describe('glob matching', () => {
  it('translates **, *, ?, braces and classes', () => {
    assert.ok(matchesGlob('src/a/b/C.cs', '**/*.cs'));
    assert.ok(matchesGlob('C.cs', '**/*.cs'));
    assert.ok(matchesGlob('src/C.cs', 'src/*.cs'));
    assert.ok(!matchesGlob('src/a/C.cs', 'src/*.cs'));
    assert.ok(matchesGlob('src/a/C.cs', 'src/**'));
    assert.ok(matchesGlob('src/A1.cs', 'src/A?.cs'));
    assert.ok(matchesGlob('x.csproj', '*.{cs,csproj}'));
    assert.ok(matchesGlob('File3.cs', 'File[0-9].cs'));
    assert.ok(!matchesGlob('FileX.cs', 'File[!A-Z].cs'));
    assert.ok(matchesGlob('deep/in/FooTests.cs', '*Tests.cs'), 'a pattern without a slash matches the file name anywhere');
    assert.ok(matchesGlob('SRC/Foo.CS', 'src/*.cs'), 'case-insensitive');
    assert.ok(matchesGlob('a+b(1).cs', 'a+b(1).cs'), 'regex characters are literal');
    assert.ok(matchesGlob('anything', ''));
  });

  it('caches compiled patterns', () => {
    assert.equal(compileGlob('**/*.cs'), compileGlob('**/*.cs'));
  });

  it('matches nested braces, ** in the middle, and a ** run of stars inside a segment', () => {
    assert.ok(matchesGlob('src/a/b/Foo.Tests.cs', 'src/**/*.{Tests,Specs}.{cs,fs}'));
    assert.ok(matchesGlob('src/Foo.Specs.fs', 'src/**/*.{Tests,Specs}.{cs,fs}'));
    assert.ok(!matchesGlob('src/Foo.Other.cs', 'src/**/*.{Tests,Specs}.{cs,fs}'));
    assert.ok(matchesGlob('a/b/c/d.cs', 'a/**/**/d.cs'));
    assert.ok(matchesGlob('a/d.cs', 'a/**/d.cs'));
    assert.ok(
      matchesGlob('xay.cs', 'x{a,{b,c}}y.cs') && matchesGlob('xcy.cs', 'x{a,{b,c}}y.cs') && !matchesGlob('xdy.cs', 'x{a,{b,c}}y.cs'),
    );
    assert.ok(matchesGlob('{x}.cs', '{x}.cs'), 'a brace without a comma is literal');
  });

  it('a pathological pattern returns at once with the exact answer (no backtracking)', () => {
    const pattern = `${'{*,*}'.repeat(9)}Z`;
    const long = 'a'.repeat(5_000);
    const started = process.hrtime.bigint();
    assert.equal(matchesGlob(long, pattern), false);
    assert.equal(matchesGlob(`${long}Z`, pattern), true);
    assert.equal(matchesGlob(`dir/${long}z`, pattern), true, 'case-insensitive, by file name');
    assert.equal(matchesGlob(long, '*a*a*a*a*a*a*a*a*a*b'), false);
    assert.equal(matchesGlob(`${long}b`, '*a*a*a*a*a*a*a*a*a*b'), true);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // A backtracking matcher takes minutes here; the linear one well under a second even on a loaded machine.
    assert.ok(ms < 2_000, `${ms} ms`);
  });

  it('refuses a pattern whose braces make too many alternatives, saying how to fix it', () => {
    assert.throws(
      () => matchesGlob('a', '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}'),
      (error: Error) => error instanceof GlobPatternError && error.message.includes(`more than ${MAX_ALTERNATIVES} alternatives`),
    );
  });
});
