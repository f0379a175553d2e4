// Each tool call as one human line: the exact words for each built-in tool, from the model's input
// and the tool's own answer, and a failure's first line.

import assert from 'node:assert/strict';
import { describeToolCall, describeToolDetail } from '../../../src/core/agents/activity-lines';
import { forgetSecret, registerSecret } from '../../../src/core/redact';

const ok = (content: string) => ({ ok: true as const, content });

describe('describeToolCall: one line per tool call, with its outcome', () => {
  it('read_file: the path and the lines read', () => {
    assert.equal(
      describeToolCall('read_file', { path: 'src/X.cs' }, ok('src/X.cs (lines 1-40 of 120)\n1\tusing System;')),
      'read src/X.cs lines 1–40 of 120',
    );
    assert.equal(describeToolCall('read_file', { path: 'src/E.cs' }, ok('src/E.cs is empty (0 lines).')), 'read src/E.cs (empty)');
  });

  it('search_text: the query, where, and how many matches (none said as 0)', () => {
    assert.equal(
      describeToolCall(
        'search_text',
        { query: 'TotalValue', filePattern: '*.cs' },
        ok('3 match(es) for "TotalValue" in . (files matching *.cs):\na.cs:1: x'),
      ),
      'searched "TotalValue" in *.cs — 3 matches',
    );
    assert.equal(
      describeToolCall('search_text', { query: 'Nope', path: 'src' }, ok('No matches for "Nope" in src.')),
      'searched "Nope" in src — 0 matches',
    );
    assert.equal(
      describeToolCall('search_text', { query: 'a+', isRegex: true }, ok('1 match(es) for "a+" in .:\na.cs:1: a')),
      'searched "a+" (regex) in the workspace — 1 match',
    );
  });

  it('find_references, find_symbols, list_files: the count, even after a notice line', () => {
    assert.equal(
      describeToolCall(
        'find_references',
        { symbol: 'Warehouse.TotalValue' },
        ok('(text index notice)\n5 reference(s) to "Warehouse.TotalValue":\nA.cs:1:1: x'),
      ),
      '5 references to Warehouse.TotalValue',
    );
    assert.equal(
      describeToolCall('find_symbols', { query: 'Add' }, ok('2 symbol(s) matching "Add":\n...')),
      'found 2 symbols matching "Add"',
    );
    assert.equal(
      describeToolCall('find_symbols', { file: 'src/A.cs' }, ok('Outline of src/A.cs (3 declaration(s)):')),
      'outlined src/A.cs',
    );
    assert.equal(
      describeToolCall('list_files', { pattern: '**/*.csproj' }, ok('2 file(s) in . matching **/*.csproj:\na\nb')),
      'listed **/*.csproj — 2 files',
    );
  });

  it('the editor says what it staged', () => {
    assert.equal(
      describeToolCall(
        'str_replace_based_edit_tool',
        { command: 'str_replace', path: 'src/A.cs', old_str: 'a', new_str: 'b' },
        ok('edited'),
      ),
      'edited src/A.cs (staged)',
    );
    assert.equal(
      describeToolCall('str_replace_based_edit_tool', { command: 'create', path: 'src/B.cs', file_text: '' }, ok('File created')),
      'wrote src/B.cs (staged)',
    );
    assert.equal(
      describeToolCall('str_replace_based_edit_tool', { command: 'insert', path: 'src/A.cs', insert_line: 4, new_str: 'x' }, ok('ok')),
      'inserted into src/A.cs after line 4 (staged)',
    );
    assert.equal(describeToolCall('str_replace_based_edit_tool', { command: 'view', path: 'src/A.cs' }, ok('Here is')), 'viewed src/A.cs');
  });

  it('a failure: the tool, what it was about and the first sentence of its error', () => {
    assert.equal(
      describeToolCall(
        'read_file',
        { path: 'src/Nope.cs' },
        { ok: false, error: 'The path src/Nope.cs does not exist. Use list_files to see which files exist.' },
      ),
      'read_file src/Nope.cs — failed: The path src/Nope.cs does not exist.',
    );
    assert.equal(
      describeToolCall(
        'read_file',
        { path: 'src/Missing.cs' },
        { ok: false, error: 'src/Missing.cs does not exist.\nDid you mean src/Mission.cs?' },
      ),
      'read_file src/Missing.cs — failed: src/Missing.cs does not exist.',
    );
    assert.equal(
      describeToolCall('submit_plan', {}, { ok: false, error: 'steps: a plan needs at least one step' }),
      'submit_plan — failed: steps: a plan needs at least one step',
    );
  });

  it('terminal tools, an unknown (MCP) tool, and odd input', () => {
    assert.equal(describeToolCall('submit_plan', { plan: {} }, ok('Accepted.')), 'submitted the plan');
    assert.equal(describeToolCall('mcp__db__query', { sql: 'select 1' }, ok('\n1 row\nid=1')), 'mcp__db__query — 1 row');
    assert.equal(describeToolCall('read_file', 'not an object', ok('x')), 'read (no path)');
  });

  it('a line is at most 300 characters', () => {
    const line = describeToolCall('search_text', { query: 'q' }, ok('1 match(es)'));
    assert.equal(line, 'searched "q" in the workspace — 1 match');
    const long = describeToolCall('mcp__x__y', {}, ok('z'.repeat(1000)));
    assert.equal(long.length, 300);
    assert.ok(long.endsWith('…'));
  });
});

describe('describeToolDetail: what an expanded tool line shows', () => {
  it('the arguments as JSON, then the answer', () => {
    assert.equal(
      describeToolDetail({ path: 'src/A.cs', limit: 2 }, ok('class A {}\n(lines 1-1 of 1)')),
      'Arguments:\n{\n  "path": "src/A.cs",\n  "limit": 2\n}\n\nResult:\nclass A {}\n(lines 1-1 of 1)',
    );
  });

  it('a failure shows its whole error; no input and an empty answer are said as such', () => {
    assert.equal(
      describeToolDetail(undefined, { ok: false, error: 'No such file. Try list_files.' }),
      'Arguments:\n{}\n\nError:\nNo such file. Try list_files.',
    );
    assert.equal(describeToolDetail({}, ok('')), 'Arguments:\n{}\n\nResult:\n(empty)');
  });

  it('is clipped to the limit and masks secrets', () => {
    const secret = 'sk-detail-secret-0123456789';
    registerSecret(secret);
    try {
      const detail = describeToolDetail({ query: secret }, ok(`${secret}\n${'x'.repeat(9000)}`));
      assert.ok(!detail.includes(secret), detail.slice(0, 200));
      assert.ok(detail.includes('"query": "[redacted]"'));
      assert.ok(detail.length <= 4000, String(detail.length));
      assert.ok(detail.endsWith('…'));
    } finally {
      forgetSecret(secret);
    }
  });
});
