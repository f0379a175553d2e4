// The built-in tools under their contract names (public: agent.yaml files list them by name).

import { checkCodeTool } from './check-code-tool';
import { findReferencesTool, findSymbolsTool } from './symbol-tools';
import { ToolRegistry } from './registry';
import { submitChangesTool, submitPlanTool } from './submit';
import { listFilesTool } from './workspace/list-files';
import { readFileTool } from './workspace/read-file';
import { searchTextTool } from './workspace/search-text';
import { textEditorTool } from './workspace/text-editor';

/** What the planner may call: it reads, it never edits. */
export const READ_ONLY_TOOL_NAMES = ['read_file', 'list_files', 'search_text', 'find_symbols', 'find_references'] as const;
export const PLANNER_TOOL_NAMES = [...READ_ONLY_TOOL_NAMES, 'submit_plan'] as const;
export const CODER_TOOL_NAMES = [...READ_ONLY_TOOL_NAMES, 'str_replace_based_edit_tool', 'check_code', 'submit_changes'] as const;

export function createDefaultToolRegistry(): ToolRegistry {
  return new ToolRegistry()
    .register(readFileTool)
    .register(listFilesTool)
    .register(searchTextTool)
    .register(findSymbolsTool)
    .register(findReferencesTool)
    .register(textEditorTool)
    .register(checkCodeTool)
    .register(submitPlanTool)
    .register(submitChangesTool);
}
