// The built-in tools under their contract names (public: agent.yaml files list them by name). The
// tools that end an agent's turn live with their agents (agents/<name>/terminal-tool.ts) and join
// these in agents/builtin.ts.

import { checkCodeTool } from './check-code-tool';
import { findReferencesTool, findSymbolsTool } from './symbol-tools';
import { ToolRegistry } from './registry';
import { listFilesTool } from './workspace/list-files';
import { readFileTool } from './workspace/read-file';
import { searchTextTool } from './workspace/search-text';
import { textEditorTool } from './workspace/text-editor';

/** What the planner may call: it reads, it never edits. */
export const READ_ONLY_TOOL_NAMES = ['read_file', 'list_files', 'search_text', 'find_symbols', 'find_references'] as const;

export function createBuiltinToolRegistry(): ToolRegistry {
  return new ToolRegistry()
    .register(readFileTool)
    .register(listFilesTool)
    .register(searchTextTool)
    .register(findSymbolsTool)
    .register(findReferencesTool)
    .register(textEditorTool)
    .register(checkCodeTool);
}
