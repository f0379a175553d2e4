// Shared by the suites that run inside the real extension host: the extension's API, the workspace,
// waiting for things that happen a moment later.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TEST_HOOKS_KEY } from '../../../src/extension/api';
import type { IronbeesApi, IronbeesTestExports, IronbeesTestHooks, WorkspaceServices } from '../../../src/extension/api';
import { PERSON_ONLY_SETTINGS } from '../../../src/extension/settings-keys';

export const EXTENSION_ID = 'ironbees.ironbees-agent-mode';
export const SOURCE = 'src/Calculator/Calculator.cs';
export const TARGET = 'Calculator.slnx';

/** What `activate()` returned, as any other extension sees it. */
export async function extensionApi(): Promise<IronbeesApi> {
  const extension = vscode.extensions.getExtension<IronbeesApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  return extension.isActive ? extension.exports : await extension.activate();
}

/** The test-only path (development builds): the live services, `reload()`, the log folder. */
export async function testHooks(): Promise<IronbeesTestHooks> {
  const api = (await extensionApi()) as Partial<IronbeesTestExports>;
  const hooks = api[TEST_HOOKS_KEY];
  if (!hooks)
    throw new Error(
      'dist/extension.js has no test hooks: it is a production build (npm run package). Run `npm run build` before the suites.',
    );
  return hooks;
}

/** The live services; after `reload()` the new ones (the hooks object stays the same). */
export async function ironbees(): Promise<WorkspaceServices> {
  const hooks = await testHooks();
  if (!hooks.workspace) throw new Error('the extension found no workspace folder');
  return hooks.workspace;
}

export async function activationMs(): Promise<number> {
  return (await extensionApi()).activationMs;
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
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Resolves once `probe` holds: checked now, at every configuration change the extension host is told
 * of, and again every quarter second in case a value arrives without one. No clock window of its
 * own: however slow the machine, the suite's timeout is the only bound.
 */
export function whenSettings<T>(probe: () => T | undefined | null | false): Promise<T> {
  return new Promise<T>((resolve) => {
    let done = false;
    const check = (): void => {
      if (done) return;
      const value = probe();
      if (!value) return;
      done = true;
      subscription.dispose();
      clearInterval(timer);
      resolve(value);
    };
    const subscription = vscode.workspace.onDidChangeConfiguration(check);
    const timer = setInterval(check, 250);
    check();
  });
}

export function reviewDiffTabs(): vscode.TabInputTextDiff[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .map((tab) => tab.input)
    .filter(
      (input): input is vscode.TabInputTextDiff =>
        input instanceof vscode.TabInputTextDiff && input.modified.scheme === 'ironbees-proposed',
    );
}

export async function setSetting(key: string, value: unknown): Promise<void> {
  // A person-only setting is machine-scoped: VS Code refuses to write it to the workspace.
  const target = PERSON_ONLY_SETTINGS.includes(key) ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace;
  await vscode.workspace.getConfiguration('ironbees').update(key, value, target);
}

/**
 * The person's own (user) settings: the only place the person-only settings (base URL, approvals)
 * are read from. A workspace value of those is ignored by design.
 */
export async function setUserSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('ironbees').update(key, value, vscode.ConfigurationTarget.Global);
}

/** Points the extension at a fake Messages API (a key in SecretStorage, the base URL, no demo model). */
export async function useFakeModel(baseUrl: string): Promise<void> {
  const { controllerDeps } = await ironbees();
  await controllerDeps.apiKeys.set('sk-ant-test-key-for-the-fake');
  await setUserSetting('anthropicBaseUrl', baseUrl);
  await setSetting('demoModel', false);
}

/** Undoes useFakeModel: the settings back to their defaults, the key removed. */
export async function stopUsingFakeModel(): Promise<void> {
  await setSetting('demoModel', undefined);
  await setUserSetting('anthropicBaseUrl', undefined);
  const { controllerDeps } = await ironbees();
  await controllerDeps.apiKeys.clear();
}

/** Reads a workspace file as bytes (null when it does not exist): reverts must restore them exactly. */
export function readWorkspaceBytes(rel: string): Buffer | null {
  const abs = path.join(workspaceRoot(), rel);
  return fs.existsSync(abs) ? fs.readFileSync(abs) : null;
}

/**
 * Runs a quick-input or notification command until `done` settles: the command does nothing
 * until the picker or notification it acts on has appeared, and there is no event for that.
 */
export async function repeatCommandUntil<T>(command: string, done: Promise<T>, timeoutMs = 20_000): Promise<T> {
  let settled = false;
  const watched = done.finally(() => {
    settled = true;
  });
  // Its failure is the caller's (returned below); this only keeps it from counting as unhandled meanwhile.
  watched.catch(() => undefined);
  const deadline = Date.now() + timeoutMs;
  while (!settled) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms running ${command} until it took effect`);
    await vscode.commands.executeCommand(command);
    await Promise.race([watched, new Promise((resolve) => setTimeout(resolve, 150))]);
  }
  return watched;
}
