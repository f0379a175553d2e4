// The coder's editor tool for models that do not know Anthropic's server-defined
// `text_editor_20250728` type: offered as an ordinary function with the same name and the same
// semantics (view with numbered lines, create, str_replace with exactly one match, insert after a
// line, and our delete), so the one implementation in tools/workspace/text-editor.ts runs whatever the provider.

export const EDITOR_FUNCTION_DESCRIPTION =
  'View, create and edit workspace files (staged for review; nothing is written to disk until approved). ' +
  'Paths are relative to the workspace root. State persists across calls. Commands: ' +
  '"view" shows a file with line numbers (view_range [start, end], -1 = to the end) or lists a folder two levels deep; a long file is cut, and the result says how to view the rest. ' +
  '"create" makes a NEW file with file_text as its whole content; it refuses a file that already exists (view it and use str_replace or insert instead; never rewrite a whole file, never write placeholders such as "// ...existing code..."). ' +
  '"str_replace" replaces old_str with new_str: old_str must match EXACTLY one or more consecutive lines of the file, whitespace and indentation included, and occur exactly once (add surrounding lines to make it unique); copy it from view output without the line numbers. ' +
  '"insert" inserts insert_text after line insert_line (0 = top of the file). ' +
  '"delete" removes the file at path (for a plan step that deletes a file). ' +
  'Keep each call small: an answer cut at the output limit runs none of its calls.';

export const EDITOR_FUNCTION_PARAMETERS: Record<string, unknown> = {
  type: 'object',
  properties: {
    command: { type: 'string', enum: ['view', 'create', 'str_replace', 'insert', 'delete'] },
    path: { type: 'string', description: 'A file or folder relative to the workspace root.' },
    view_range: {
      type: 'array',
      items: { type: 'integer' },
      minItems: 2,
      maxItems: 2,
      description: 'view: [start, end] line numbers; -1 as end reads to the end.',
    },
    file_text: { type: 'string', description: 'create: the whole content of the new file (a file that exists is refused).' },
    old_str: { type: 'string', description: 'str_replace: the exact text to replace, whitespace included (must occur exactly once).' },
    new_str: { type: 'string', description: 'str_replace: the replacement text.' },
    insert_line: { type: 'integer', description: 'insert: the line after which to insert (0 = top of the file).' },
    insert_text: { type: 'string', description: 'insert: the text to insert.' },
  },
  required: ['command', 'path'],
};
