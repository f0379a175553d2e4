// The coder's editor tool for models that do not know Anthropic's server-defined
// `text_editor_20250728` type: offered as an ordinary function with the same name and the same
// semantics (view with numbered lines, create, str_replace with exactly one match, insert after a
// line), so the one implementation in tools/workspace/text-editor.ts runs whatever the provider.

export const EDITOR_FUNCTION_DESCRIPTION =
  'View, create and edit workspace files (staged for review; nothing is written to disk until approved). ' +
  'Paths are relative to the workspace root. Commands: ' +
  '"view" shows a file with line numbers (view_range [start, end], -1 = to the end) or lists a folder; ' +
  '"create" writes file_text as the whole file; ' +
  '"str_replace" replaces old_str, which must match exactly once, with new_str; ' +
  '"insert" inserts insert_text after line insert_line (0 = top of the file).';

export const EDITOR_FUNCTION_PARAMETERS: Record<string, unknown> = {
  type: 'object',
  properties: {
    command: { type: 'string', enum: ['view', 'create', 'str_replace', 'insert'] },
    path: { type: 'string', description: 'A file or folder relative to the workspace root.' },
    view_range: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2, description: 'view: [start, end] line numbers; -1 as end reads to the end.' },
    file_text: { type: 'string', description: 'create: the whole content of the file.' },
    old_str: { type: 'string', description: 'str_replace: the exact text to replace (must occur exactly once).' },
    new_str: { type: 'string', description: 'str_replace: the replacement text.' },
    insert_line: { type: 'integer', description: 'insert: the line after which to insert (0 = top of the file).' },
    insert_text: { type: 'string', description: 'insert: the text to insert.' },
  },
  required: ['command', 'path'],
};
