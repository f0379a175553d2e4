// The provider and run settings, read apart from settings.ts so they stay in one small file: which
// provider (user scope only: a repository must not redirect a person's key elsewhere), the
// OpenAI-compatible base URL, context files, budgets and the fallback. Pure: it takes a getter,
// so a plain-Node test checks every rule.

import * as path from 'node:path';
import type { WorkflowContext } from '../core/model';
import { DEFAULT_PROVIDER, PROVIDER_NAMES, isProviderName } from '../core/llm/providers/choice';
import type { ProviderName } from '../core/llm/providers/choice';
import type { RunBudget } from '../core/workflow/budget';

export const ProviderSettingKeys = {
  provider: 'provider',
  openaiBaseUrl: 'openaiBaseUrl',
  contextFiles: 'contextFiles',
  maxCostUsd: 'budget.maxCostUsd',
  maxTokens: 'budget.maxTokens',
  maxMinutes: 'budget.maxMinutes',
  fallbackProvider: 'fallback.provider',
  fallbackModel: 'fallback.model',
} as const;

export interface ProviderSettings {
  provider: ProviderName;
  openaiBaseUrl: string;
  contextFiles: string[];
  budget: RunBudget;
  fallback: { provider: ProviderName; model: string } | null;
}

// Short names for the status bar and pickers; a provider without one is shown by its registry name.
const PROVIDER_LABELS: Partial<Record<ProviderName, string>> = { anthropic: 'Anthropic', openai: 'OpenAI-compatible' };

export function providerLabel(provider: ProviderName): string {
  return PROVIDER_LABELS[provider] ?? provider;
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** A hand-edited bad value falls back to "not set" rather than breaking a run. */
export function readProviderSettings(get: (key: string) => unknown): ProviderSettings {
  const provider = get(ProviderSettingKeys.provider);
  const files = get(ProviderSettingKeys.contextFiles);
  const budget: RunBudget = {};
  const cost = positive(get(ProviderSettingKeys.maxCostUsd));
  const tokens = positive(get(ProviderSettingKeys.maxTokens));
  const minutes = positive(get(ProviderSettingKeys.maxMinutes));
  if (cost !== undefined) budget.maxCostUsd = cost;
  if (tokens !== undefined) budget.maxTokens = Math.floor(tokens);
  if (minutes !== undefined) budget.maxMinutes = minutes;
  const fallbackProvider = get(ProviderSettingKeys.fallbackProvider);
  const fallbackModel = String(get(ProviderSettingKeys.fallbackModel) ?? '').trim();
  return {
    provider: isProviderName(provider) ? provider : DEFAULT_PROVIDER,
    openaiBaseUrl: String(get(ProviderSettingKeys.openaiBaseUrl) ?? '').trim(),
    contextFiles: Array.isArray(files)
      ? files.filter((f): f is string => typeof f === 'string' && f.trim() !== '').map((f) => f.trim())
      : [],
    budget,
    fallback: isProviderName(fallbackProvider) && fallbackModel ? { provider: fallbackProvider, model: fallbackModel } : null,
  };
}

/** What these settings add to a run's WorkflowContext (context files resolved against the workspace). */
export function providerWorkflowExtras(settings: ProviderSettings, workspaceRoot: string): Partial<WorkflowContext> {
  return {
    ...(settings.provider !== DEFAULT_PROVIDER ? { provider: settings.provider } : {}),
    ...(settings.contextFiles.length ? { contextFiles: settings.contextFiles.map((file) => path.resolve(workspaceRoot, file)) } : {}),
    ...(Object.keys(settings.budget).length ? { budget: settings.budget } : {}),
    ...(settings.fallback ? { fallback: settings.fallback } : {}),
  };
}

/** The message when the chosen provider has no key; it names the provider and the way to fix it. */
export function noKeyMessage(provider: ProviderName): string {
  if (provider === 'openai') {
    return (
      'No OpenAI-compatible API key. Run "Ironbees: Set API Key" and choose OpenAI-compatible, set OPENAI_API_KEY, ' +
      'or set "ironbees.openaiBaseUrl" to a local server (Ollama, LM Studio, vLLM need no key).'
    );
  }
  return (
    'No Anthropic API key. Run "Ironbees: Set API Key" and choose Anthropic (stored in secret storage), set ANTHROPIC_API_KEY, ' +
    'or turn on the "ironbees.demoModel" setting to try the scripted demo model on the bundled sample.'
  );
}

/**
 * The message when the fallback provider has no key: a run would otherwise start and only find out
 * in an outage, the one moment the fallback is needed.
 */
export function noFallbackKeyMessage(provider: ProviderName): string {
  const fix =
    provider === 'openai'
      ? 'Run "Ironbees: Set API Key" and choose OpenAI-compatible, set OPENAI_API_KEY, or set "ironbees.openaiBaseUrl" to a local server'
      : 'Run "Ironbees: Set API Key" and choose Anthropic, or set ANTHROPIC_API_KEY';
  return `No API key for the fallback provider ${providerLabel(provider)} (setting "ironbees.fallback.provider"). ${fix}; or clear "ironbees.fallback.provider".`;
}

/** What the panel's status line says of the key (its tooltip), naming the provider the settings choose. */
export function apiKeyStatusText(provider: ProviderName, hasKey: boolean, demoModel: boolean): string {
  if (demoModel) return 'The scripted demo model answers: no API key needed';
  const label = providerLabel(provider);
  return hasKey ? `${label} API key set` : `No ${label} API key: run "Ironbees: Set API Key" and choose ${label}`;
}

/** `OpenAI-compatible · qwen2.5-coder:7b`, for the status bar's tooltip and the panel. */
export function providerModelText(provider: ProviderName, model: string): string {
  return `${providerLabel(provider)} · ${model || 'each agent\u2019s model'}`;
}

export const PROVIDER_CHOICES: ReadonlyArray<{ provider: ProviderName; label: string }> = PROVIDER_NAMES.map((provider) => ({
  provider,
  label: providerLabel(provider),
}));
