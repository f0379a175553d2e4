// Person-only settings a repository tries to set. VS Code already drops a machine-scoped value from
// workspace settings (it never reaches getConfiguration), but silently: the person should know that
// the repository they opened tried to redirect the model traffic or switch the approvals off. So
// the workspace's own settings files are read here (JSONC, as VS Code reads them) to find such values.

import * as fs from 'node:fs';
import * as path from 'node:path';
// The ES module build: the UMD one (package.json "main") requires its parts at run time, which a bundle cannot follow.
import { parse } from 'jsonc-parser/lib/esm/main.js';

export interface WorkspaceOverride {
  /** The full setting name, e.g. `ironbees.anthropicBaseUrl`. */
  setting: string;
  value: unknown;
  /** The file that set it. */
  file: string;
}

/** `.vscode/settings.json` of the folder, and the `.code-workspace` file's `settings` when one is open. */
export function findWorkspaceOverrides(
  folderPath: string,
  workspaceFile: string | undefined,
  settings: readonly string[],
): WorkspaceOverride[] {
  const found: WorkspaceOverride[] = [];
  const folderSettings = path.join(folderPath, '.vscode', 'settings.json');
  found.push(...overridesIn(folderSettings, readJsonc(folderSettings), settings));
  if (workspaceFile && workspaceFile.endsWith('.code-workspace')) {
    const workspace = readJsonc(workspaceFile) as { settings?: unknown } | undefined;
    found.push(...overridesIn(workspaceFile, workspace?.settings, settings));
  }
  return found;
}

function overridesIn(file: string, json: unknown, settings: readonly string[]): WorkspaceOverride[] {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return [];
  const values = json as Record<string, unknown>;
  return settings.filter((setting) => values[setting] !== undefined).map((setting) => ({ setting, value: values[setting], file }));
}

function readJsonc(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return parse(text, [], { allowTrailingComma: true, disallowComments: false });
}
