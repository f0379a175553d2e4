// The editor's side of the trust gate (core/runtime/trust.ts): what a workspace defines that runs or
// reaches something (its agents, its MCP servers) is used only when VS Code trusts the workspace AND
// the person confirmed it to Ironbees in a dialog that lists those items; the answer is remembered
// per folder in the extension's global state (outside the workspace). Otherwise each item is named
// once in the "Ironbees" log and the built-in agents run.

import type * as vscode from 'vscode';
import type { Logger } from '../core/host';
import { ignoredLine, workspaceDefinitions } from '../core/runtime/trust';
import type { WorkspaceDefinition } from '../core/runtime/trust';

const TRUSTED_KEY_PREFIX = 'ironbees.trustedWorkspace:';
export const TRUST_BUTTON = 'Trust and use them';

export interface EditorTrustDeps {
  workspaceRoot: string;
  /** The extension's global state: where a confirmation is remembered. */
  memento: vscode.Memento;
  logger: Logger;
  /** VS Code's workspace trust (vscode.workspace.isTrusted). */
  isTrusted: () => boolean;
  /** Shows a modal confirmation with these buttons; resolves with the one chosen (undefined: dismissed). */
  confirm: (message: string, detail: string, button: string) => Thenable<string | undefined>;
}

/** Whether the workspace's own agents and MCP servers may be used for the next runtime. */
export async function editorWorkspaceTrust(deps: EditorTrustDeps): Promise<boolean> {
  const defined = workspaceDefinitions(deps.workspaceRoot);
  if (defined.length === 0) return false;
  if (!deps.isTrusted()) return ignoreAll(deps, defined, 'trust the workspace in VS Code, then confirm it to Ironbees');
  const key = `${TRUSTED_KEY_PREFIX}${deps.workspaceRoot}`;
  if (deps.memento.get<boolean>(key) === true) return true;
  const detail = defined.map((item) => `${item.path}: ${item.what}`).join('\n');
  const answer = await deps.confirm(
    'This workspace defines agents or MCP servers that Ironbees would run or contact. Use them?',
    detail,
    TRUST_BUTTON,
  );
  if (answer !== TRUST_BUTTON) return ignoreAll(deps, defined, 'confirm it to Ironbees when asked at the next run to use it');
  await deps.memento.update(key, true);
  return true;
}

function ignoreAll(deps: EditorTrustDeps, defined: readonly WorkspaceDefinition[], how: string): false {
  for (const item of defined) deps.logger.warn(ignoredLine(item, how));
  return false;
}
