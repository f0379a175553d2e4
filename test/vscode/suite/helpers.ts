// Shared by the suites that run inside the real extension host: the extension's API, the workspace,
// waiting for things that happen a moment later.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { IronbeesApi, WorkspaceServices } from '../../../src/extension/api';

export const EXTENSION_ID = 'ironbees.ironbees-agent-mode';
export const SOURCE = 'src/Calculator/Calculator.cs';
export const TARGET = 'Calculator.slnx';

export async function ironbees(): Promise<WorkspaceServices> {
  const extension = vscode.extensions.getExtension<IronbeesApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  const api = extension.isActive ? extension.exports : await extension.activate();
  if (!api.workspace) throw new Error('the extension found no workspace folder');
  return api.workspace;
}

export async function activationMs(): Promise<number> {
  const extension = vscode.extensions.getExtension<IronbeesApi>(EXTENSION_ID);
  const api = extension?.isActive ? extension.exports : await extension?.activate();
  return api?.activationMs ?? NaN;
}

export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder is open');
  return folder.uri.fsPath;
}

export function readWorkspaceFile(rel: string): string | null {
  const abs = path.join(workspaceRoot(), rel);
  return fs.existsSync(abs) ? fs.readFileSync(abs, 'utf8') : null;
}

/** Polls `probe` until it returns something truthy; fails with `what` after `timeoutMs`. */
export async function eventually<T>(what: string, probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function reviewDiffTabs(): vscode.TabInputTextDiff[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .map((tab) => tab.input)
    .filter((input): input is vscode.TabInputTextDiff => input instanceof vscode.TabInputTextDiff && input.modified.scheme === 'ironbees-proposed');
}

export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('ironbees').update(key, value, vscode.ConfigurationTarget.Workspace);
}
