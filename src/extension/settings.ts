// Every setting key in one place (vscode-pull-request-github's `settingKeys.ts`), and the typed
// reading of them. The API key is NOT a setting: it lives in SecretStorage (secrets.ts).
//
// A repository is untrusted input, and its `.vscode/settings.json` is part of it. The settings that
// choose where model traffic (and so the key and the code) goes, and how much a person approves, are
// `"scope": "machine"` in package.json and read here from the person's own settings only: a
// workspace or folder value is ignored, and said so once in the log.

import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DiffApprovalPolicy, PlanApprovalPolicy, ReviewMode, WorkflowContext } from '../core/model';
import { DEFAULT_MAX_ITERATIONS, DEFAULT_REVIEW_THRESHOLD, REVIEW_MODES } from '../core/model';
import { SANDBOX_MODES } from '../core/platform/sandbox';
import type { SandboxMode } from '../core/platform/sandbox';
import { providerWorkflowExtras, readProviderSettings } from './provider-settings';
import type { ProviderSettings } from './provider-settings';
import { PERSON_ONLY_SETTINGS, SETTINGS_SECTION, SettingKeys } from './settings-keys';
import { findWorkspaceOverrides } from './workspace-overrides';

export { PERSON_ONLY_SETTINGS, SETTINGS_SECTION, SettingKeys } from './settings-keys';

/** Each ignored workspace value is logged once per session, not on every read. */
const reportedWorkspaceValues = new Set<string>();

export interface IronbeesSettings extends ProviderSettings {
  model: string;
  maxIterations: number;
  planApproval: PlanApprovalPolicy;
  diffApproval: DiffApprovalPolicy;
  buildSeconds: number;
  testSeconds: number;
  /** 0: each agent's default silence limit. */
  agentSeconds: number;
  agentsFolder: string;
  demoModel: boolean;
  anthropicBaseUrl: string;
  /** As written in settings; validated (with clear errors) when a runtime is built. */
  mcpServers: unknown;
  /** Extra environment variable names kept from every child process (see src/core/platform/child-env.ts). */
  secretEnvironmentVariables: string[];
  /** Where runs are exported as OpenTelemetry traces (a base URL); empty: OTEL_EXPORTER_OTLP_ENDPOINT, else off. */
  otlpEndpoint: string;
  /** Builds and tests in the sandbox (src/core/platform/sandbox.ts); person-only: a repository cannot turn it off. */
  sandbox: SandboxMode;
  /** Whether a reviewer reads the change once the tests pass, and its pass mark; person-only. Absent: required, 8. */
  review?: ReviewMode;
  reviewThreshold?: number;
  /** How many phases of a plan may run at once, each in a git worktree of its own (1: one at a time). */
  parallel?: number;
  /** Where runs' signed webhooks are posted (webhook-notices.ts); empty: none. Person-only. */
  notifyWebhook?: string;
}

const DEFAULT_TIMEOUT_SECONDS = 600;

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

function positiveInt(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : fallback;
}

/**
 * A person-only setting: the user (or remote machine) value, else the default. A value the
 * workspace or a folder sets is never used (VS Code drops it for a machine-scoped setting, and this
 * reads only the global value in case an older host does not).
 */
function personValue(config: vscode.WorkspaceConfiguration, key: string): unknown {
  const seen = config.inspect(key);
  return seen?.globalValue ?? seen?.defaultValue;
}

/** Says once per value that the workspace's attempt to set a person-only setting was ignored. */
function reportWorkspaceOverrides(scope: vscode.ConfigurationScope | undefined, warn: (message: string) => void): void {
  const folder = scope instanceof vscode.Uri ? vscode.workspace.getWorkspaceFolder(scope) : vscode.workspace.workspaceFolders?.[0];
  if (!folder || folder.uri.scheme !== 'file') return;
  const workspaceFile = vscode.workspace.workspaceFile?.scheme === 'file' ? vscode.workspace.workspaceFile.fsPath : undefined;
  const settings = PERSON_ONLY_SETTINGS.map((key) => `${SETTINGS_SECTION}.${key}`);
  for (const { setting, value, file } of findWorkspaceOverrides(folder.uri.fsPath, workspaceFile, settings)) {
    const said = `${file}:${setting}=${JSON.stringify(value)}`;
    if (reportedWorkspaceValues.has(said)) continue;
    reportedWorkspaceValues.add(said);
    warn(
      `Ignoring "${setting}": ${JSON.stringify(value)} from the workspace settings (${file}). Only your own user settings choose where model traffic goes, what runs or is read outside the workspace, and what needs your approval; a repository cannot.`,
    );
  }
}

/** Reads the settings; a hand-edited bad value falls back to its default rather than breaking a run. */
export function readSettings(scope?: vscode.ConfigurationScope, warn?: (message: string) => void): IronbeesSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION, scope);
  if (warn) reportWorkspaceOverrides(scope, warn);
  const names = personValue(config, SettingKeys.secretEnvironmentVariables);
  // Every person-only key is read from the person's settings alone, whatever the reader.
  const get = (key: string): unknown => (PERSON_ONLY_SETTINGS.includes(key) ? personValue(config, key) : config.get(key));
  return {
    model: String(get(SettingKeys.model) ?? '').trim(),
    maxIterations: positiveInt(get(SettingKeys.maxIterations), DEFAULT_MAX_ITERATIONS),
    planApproval: oneOf(personValue(config, SettingKeys.planApproval), ['always', 'never'], 'always'),
    diffApproval: oneOf(personValue(config, SettingKeys.diffApproval), ['always', 'first', 'never'], 'always'),
    buildSeconds: positiveInt(config.get(SettingKeys.buildSeconds), DEFAULT_TIMEOUT_SECONDS),
    testSeconds: positiveInt(config.get(SettingKeys.testSeconds), DEFAULT_TIMEOUT_SECONDS),
    agentSeconds: positiveInt(config.get(SettingKeys.agentSeconds), 0),
    agentsFolder: String(get(SettingKeys.agentsFolder) ?? '').trim(),
    demoModel: config.get(SettingKeys.demoModel) === true,
    anthropicBaseUrl: String(personValue(config, SettingKeys.anthropicBaseUrl) ?? '').trim(),
    mcpServers: get(SettingKeys.mcpServers) ?? {},
    ...readProviderSettings(get),
    secretEnvironmentVariables: Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : [],
    // Person-only: a repository must not send the runs' traces (requests, file names, costs) elsewhere.
    otlpEndpoint: String(personValue(config, SettingKeys.otlpEndpoint) ?? '').trim(),
    sandbox: oneOf(personValue(config, SettingKeys.sandbox), SANDBOX_MODES, 'auto'),
    review: oneOf(personValue(config, SettingKeys.review), REVIEW_MODES, 'required'),
    reviewThreshold: Math.min(10, positiveInt(personValue(config, SettingKeys.reviewThreshold), DEFAULT_REVIEW_THRESHOLD)),
    parallel: Math.min(16, positiveInt(config.get(SettingKeys.parallel), 1)),
    // Person-only: a repository must not send its runs' requests and summaries elsewhere.
    notifyWebhook: String(personValue(config, SettingKeys.notifyWebhook) ?? '').trim(),
  };
}

/** True when a change touches any Ironbees setting (the runtime is then rebuilt before the next run). */
export function affectsIronbees(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(SETTINGS_SECTION);
}

export function workflowContext(settings: IronbeesSettings, workspaceRoot: string, target?: string): WorkflowContext {
  return {
    workspaceRoot,
    maxIterations: settings.maxIterations,
    ...(settings.model ? { model: settings.model } : {}),
    approval: { plan: settings.planApproval, diffs: settings.diffApproval },
    timeouts: { buildMs: settings.buildSeconds * 1000, testMs: settings.testSeconds * 1000 },
    ...(settings.agentSeconds > 0 ? { agentTimeoutMs: settings.agentSeconds * 1000 } : {}),
    ...(target ? { target } : {}),
    ...providerWorkflowExtras(settings, workspaceRoot),
    ...(settings.sandbox !== 'auto' ? { sandbox: settings.sandbox } : {}),
    review: { mode: settings.review ?? 'required', threshold: settings.reviewThreshold ?? DEFAULT_REVIEW_THRESHOLD },
    ...((settings.parallel ?? 1) > 1 ? { parallel: settings.parallel } : {}),
  };
}

/** The agents folder setting, absolute; null when it is not set. */
export function agentsFolderPath(settings: IronbeesSettings, workspaceRoot: string): string | null {
  if (!settings.agentsFolder) return null;
  return path.resolve(workspaceRoot, settings.agentsFolder);
}
