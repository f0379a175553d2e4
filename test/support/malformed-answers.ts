// Generated malformed model answers for the tool-loop fuzz (seed 004 §9.4): every answer is wrong
// in a way a real model gets wrong (bad JSON, unknown or nested tools, several terminal calls,
// missing or extra fields, huge strings, wrong enums, paths that try to leave the workspace), so
// every call in it must be answered with a tool error. Deterministic: the same seed gives the same
// answers. Nothing here is a valid call: a generated call that succeeds is a finding.

import type { ModelResponse, ToolUseBlock } from '../../src/core/llm/port';
import { modelTurn, textBlock } from '../../src/core/llm/scripted';

/** mulberry32: a small seeded PRNG, so a failing answer can be regenerated from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface FuzzWorld {
  /** Absolute path of a folder outside the workspace that nothing may touch. */
  sentinelDir: string;
  /** Workspace entries that are symbolic links leading into the sentinel folder. */
  escapingLinks: readonly string[];
}

export type FuzzCategory =
  | 'bad-json'
  | 'unknown-tool'
  | 'nested-tool'
  | 'several-terminals'
  | 'missing-extra-fields'
  | 'huge-string'
  | 'wrong-enum'
  | 'path-trick'
  | 'no-tool-call';

export const FUZZ_CATEGORIES: readonly FuzzCategory[] = [
  'bad-json',
  'unknown-tool',
  'nested-tool',
  'several-terminals',
  'missing-extra-fields',
  'huge-string',
  'wrong-enum',
  'path-trick',
  'no-tool-call',
];

export const EDITOR = 'str_replace_based_edit_tool';
export const TERMINAL = 'submit_changes';
/** The one summary the fuzz terminal accepts: never generated. */
export const FUZZ_DONE = 'fuzz-done';

type Call = { name: string; input: unknown };
type Rand = () => number;

const pick = <T>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)];
const randomText = (rand: Rand, length: number): string =>
  Array.from({ length }, () => String.fromCharCode(32 + Math.floor(rand() * 95))).join('');

const BROKEN_JSON = [
  '{"path": "src/A.cs"',
  '{path: src/A.cs}',
  '{"command": "view", "path": }',
  '[{"path"',
  '"',
  '{"a":1}}',
  'null,',
  'undefined',
  '{"path":"src/A.cs",}',
];

function pathTricks(world: FuzzWorld): string[] {
  return [
    '../outside.txt',
    '../../../../../../etc/passwd',
    '/etc/passwd',
    `${world.sentinelDir}/secret.txt`,
    `${world.sentinelDir}/new.cs`,
    'src/../../escaped.cs',
    'src/../../../tmp/x.cs',
    '..\\..\\windows.cs',
    ' ../padded.cs',
    'src/A.cs\0.txt',
    '\0',
    'src/\0/A.cs',
    '.git/config',
    '.GIT/HEAD',
    '.ironbees/runs/x/state.json',
    'src/../.git/hooks/pre-commit',
    ...world.escapingLinks.flatMap((link) => [link, `${link}/secret.txt`, `${link}/sub/new.cs`, `src/../${link}/secret.txt`]),
  ];
}

/** A call whose path leaves the workspace: read, list, search, view, create, replace, insert. */
function pathTrickCall(rand: Rand, world: FuzzWorld): Call {
  const target = pick(rand, pathTricks(world));
  return pick<Call>(rand, [
    { name: 'read_file', input: { path: target } },
    { name: 'list_files', input: { path: target } },
    { name: 'search_text', input: { query: 'secret', path: target } },
    { name: EDITOR, input: { command: 'view', path: target } },
    { name: EDITOR, input: { command: 'create', path: target, file_text: 'pwned' } },
    { name: EDITOR, input: { command: 'str_replace', path: target, old_str: 'secret', new_str: 'pwned' } },
    { name: EDITOR, input: { command: 'insert', path: target, insert_line: 0, insert_text: 'pwned' } },
  ]);
}

function callOf(category: Exclude<FuzzCategory, 'no-tool-call' | 'several-terminals'>, rand: Rand, world: FuzzWorld): Call {
  switch (category) {
    case 'bad-json':
      return {
        name: pick(rand, ['read_file', EDITOR, 'search_text', TERMINAL]),
        input: pick<unknown>(rand, [...BROKEN_JSON, 42, true, ['src/A.cs']]),
      };
    case 'unknown-tool':
      return {
        name: pick(rand, [
          'bash',
          'run_shell',
          'READ_FILE',
          'read-file',
          'Read_File',
          '',
          ' ',
          'functions.read_file',
          'mcp__evil__exec',
          'submit_change',
          'text_editor',
          randomText(rand, 1 + Math.floor(rand() * 40)),
        ]),
        input: { path: 'src/A.cs', command: 'rm -rf /' },
      };
    case 'nested-tool':
      return pick<Call>(rand, [
        {
          name: 'multi_tool_use.parallel',
          input: { tool_uses: [{ recipient_name: 'functions.read_file', parameters: { path: 'src/A.cs' } }] },
        },
        { name: 'read_file', input: { tool_use: { name: 'read_file', input: { path: 'src/A.cs' } } } },
        { name: EDITOR, input: { tool_calls: [{ name: EDITOR, input: { command: 'create', path: 'src/B.cs', file_text: 'x' } }] } },
        { name: TERMINAL, input: { input: { summary: 'nested' } } },
        { name: 'search_text', input: { name: 'read_file', arguments: '{"path":"src/A.cs"}' } },
      ]);
    case 'missing-extra-fields':
      return pick<Call>(rand, [
        { name: 'read_file', input: { file: 'src/A.cs', extra: 'field', offset: 3 } },
        { name: 'read_file', input: {} },
        { name: EDITOR, input: { path: 'src/A.cs', mode: 'view' } },
        { name: EDITOR, input: { command: 'str_replace', path: 'src/A.cs', new_str: 'x', extra: true } },
        { name: EDITOR, input: { command: 'create', file_text: 'x' } },
        { name: EDITOR, input: { command: 'insert', path: 'src/A.cs', insert_text: 'x' } },
        { name: 'search_text', input: { pattern: 'class', isRegex: false } },
        { name: 'search_text', input: {} },
        { name: 'find_references', input: { name: 'Add', extra: 1 } },
        { name: TERMINAL, input: { summaryText: 'done', edits: [] } },
        { name: TERMINAL, input: {} },
      ]);
    case 'huge-string': {
      const huge = randomText(rand, 64).repeat(128 + Math.floor(rand() * 896));
      return pick<Call>(rand, [
        { name: 'read_file', input: { path: huge } },
        { name: EDITOR, input: { command: 'str_replace', path: 'src/A.cs', old_str: huge, new_str: 'x' } },
        { name: EDITOR, input: { command: 'create', path: `src/${huge.slice(0, 5_000)}.cs`, file_text: 'x' } },
        { name: 'search_text', input: { query: huge, path: 'src/missing-folder' } },
        { name: 'list_files', input: { path: huge } },
        { name: 'unknown_tool', input: { blob: huge } },
      ]);
    }
    case 'wrong-enum':
      return pick<Call>(rand, [
        {
          name: EDITOR,
          input: {
            command: pick<unknown>(rand, ['remove', 'undo_edit', 'rm', 'exec', 'VIEW', 'View ', 42, null, ['view']]),
            path: 'src/A.cs',
          },
        },
        { name: 'find_symbols', input: { query: 'Add', kind: pick(rand, ['banana', 'class-ish', 7, 'CLASSES']) } },
        {
          name: EDITOR,
          input: { command: 'view', path: 'src/A.cs', view_range: pick<unknown>(rand, [[1], 'one to two', [1, 2, 3], { start: 1 }]) },
        },
        { name: 'search_text', input: { query: 'x', isRegex: pick<unknown>(rand, ['maybe', 2, {}]) } },
      ]);
    case 'path-trick':
      return pathTrickCall(rand, world);
  }
}

let nextId = 0;
const block = (call: Call): ToolUseBlock => ({ type: 'tool_use', id: `toolu_fuzz_${++nextId}`, name: call.name, input: call.input });

/** One malformed answer and its category. */
export function malformedAnswer(rand: Rand, world: FuzzWorld): { category: FuzzCategory; response: ModelResponse } {
  const category = pick(rand, FUZZ_CATEGORIES);
  if (category === 'no-tool-call') {
    const text = pick(rand, [
      `{"name":"read_file","input":{"path":"src/A.cs"}`,
      `<tool_use>read_file</tool_use>`,
      'I will now call submit_changes.',
      '',
    ]);
    const stopReason = pick(rand, ['end_turn', 'max_tokens', 'stop_sequence']);
    return { category, response: text === '' ? modelTurn([], { stopReason }) : modelTurn([textBlock(text)], { stopReason }) };
  }
  if (category === 'several-terminals') {
    const count = 2 + Math.floor(rand() * 3);
    const calls = Array.from({ length: count }, (_, i) => ({ name: TERMINAL, input: { summary: `attempt ${i} ${randomText(rand, 8)}` } }));
    return { category, response: modelTurn(calls.map(block)) };
  }
  // One to four calls of the category, sometimes preceded by chatter.
  const calls = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => block(callOf(category, rand, world)));
  return { category, response: modelTurn(rand() < 0.3 ? [textBlock('Let me try this.'), ...calls] : calls) };
}
