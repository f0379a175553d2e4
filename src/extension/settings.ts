// Every setting key in one place (vscode-pull-request-github's `settingKeys.ts`), and the typed
// reading of them. The API key is NOT a setting: it lives in SecretStorage (secrets.ts).

import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DiffApprovalPolicy, PlanApprovalPolicy, WorkflowContext } from '../core/model';
import { DEFAULT_MAX_ITERATIONS } from '../core/model';
import { providerWorkflowExtras, readProviderSettings } from './provider-settings';
import type { ProviderSettings } from './provider-settings';

export const SETTINGS_SECTION = 'ironbees';

export const SettingKeys = {
  model: 'model',
  maxIterations: 'maxIterations',
  planApproval: 'approval.plan',
  diffApproval: 'approval.diffs',
  buildSeconds: 'timeouts.buildSeconds',
  testSeconds: 'timeouts.testSeconds',
  agentsFolder: 'agentsFolder',
  demoModel: 'demoModel',
  anthropicBaseUrl: 'anthropicBaseUrl',
  mcpServers: 'mcpServers',
} as const;

export interface IronbeesSettings extends ProviderSettings {
  model: string;
  maxIterations: number;
  planApproval: PlanApprovalPolicy;
  diffApproval: DiffApprovalPolicy;
  buildSeconds: number;
  testSeconds: number;
  agentsFolder: string;
  demoModel: boolean;
  anthropicBaseUrl: string;
  /** As written in settings; validated (with clear errors) when a runtime is built. */
  mcpServers: unknown;
}

const DEFAULT_TIMEOUT_SECONDS = 600;

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

function positiveInt(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : fallback;
}

/** Reads the settings; a hand-edited bad value falls back to its default rather than breaking a run. */
export function readSettings(scope?: vscode.ConfigurationScope): IronbeesSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION, scope);
  return {
    model: String(config.get(SettingKeys.model) ?? '').trim(),
    maxIterations: positiveInt(config.get(SettingKeys.maxIterations), DEFAULT_MAX_ITERATIONS),
    planApproval: oneOf(config.get(SettingKeys.planApproval), ['always', 'never'], 'always'),
    diffApproval: oneOf(config.get(SettingKeys.diffApproval), ['always', 'first', 'never'], 'always'),
    buildSeconds: positiveInt(config.get(SettingKeys.buildSeconds), DEFAULT_TIMEOUT_SECONDS),
    testSeconds: positiveInt(config.get(SettingKeys.testSeconds), DEFAULT_TIMEOUT_SECONDS),
    agentsFolder: String(config.get(SettingKeys.agentsFolder) ?? '').trim(),
    demoModel: config.get(SettingKeys.demoModel) === true,
    anthropicBaseUrl: String(config.get(SettingKeys.anthropicBaseUrl) ?? '').trim(),
    mcpServers: config.get(SettingKeys.mcpServers) ?? {},
    ...readProviderSettings((key) => config.get(key)),
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
    ...(target ? { target } : {}),
    ...providerWorkflowExtras(settings, workspaceRoot),
  };
}

/** The agents folder setting, absolute; null when it is not set. */
export function agentsFolderPath(settings: IronbeesSettings, workspaceRoot: string): string | null {
  if (!settings.agentsFolder) return null;
  return path.resolve(workspaceRoot, settings.agentsFolder);
}
