// The model client a run in the editor calls, built from the settings and the keys the extension
// holds (SecretStorage, else the environment) by the same provider registry as the CLI's
// (core/runtime/model-client.ts): Claude, or "ironbees.provider": "openai" (its base URL from
// "ironbees.openaiBaseUrl" or OPENAI_BASE_URL), and with "ironbees.fallback.*" the same fallback
// client and circuit breaker the CLI wraps its router in, so the fallback the panel names is the
// one used. A provider without a key is a message that names it, before any run starts. No vscode
// import: a plain-Node test builds these clients against fake servers.

import { ConfigurationError } from '../core/errors';
import type { Logger } from '../core/host';
import type { ModelClient } from '../core/llm/port';
import type { ProviderName } from '../core/llm/providers/choice';
import { CircuitBreaker, FallbackModelClient } from '../core/llm/providers/fallback';
import { createModelClient } from '../core/runtime';
import type { IronbeesSettings } from './settings';
import { noFallbackKeyMessage, noKeyMessage } from './provider-settings';

export interface ModelSettingsOptions {
  settings: IronbeesSettings;
  /** The Anthropic key (SecretStorage, else ANTHROPIC_API_KEY). */
  apiKey: string | undefined;
  /** The OpenAI-compatible key (SecretStorage, else OPENAI_API_KEY). */
  openaiApiKey?: string;
  logger: Logger;
  /** Tests give their own model (a scripted one); otherwise it follows the settings. */
  model?: ModelClient;
}

export const NO_API_KEY_MESSAGE =
  'No Anthropic API key. Run "Ironbees: Set API Key" (stored in secret storage), set ANTHROPIC_API_KEY, ' +
  'or turn on the "ironbees.demoModel" setting to try the scripted demo model on the bundled sample.';

function openaiEnv(): { OPENAI_API_KEY: string | undefined; OPENAI_BASE_URL: string | undefined } {
  return { OPENAI_API_KEY: process.env.OPENAI_API_KEY, OPENAI_BASE_URL: process.env.OPENAI_BASE_URL };
}

/** A key, or a base URL (a local server needs no key). */
function hasOpenaiAccess(options: Pick<ModelSettingsOptions, 'settings' | 'openaiApiKey'>): boolean {
  const env = openaiEnv();
  return Boolean(options.openaiApiKey || env.OPENAI_API_KEY || options.settings.openaiBaseUrl || env.OPENAI_BASE_URL);
}

export function openaiModelFromSettings(options: { settings: IronbeesSettings; openaiApiKey?: string; logger: Logger }): ModelClient {
  if (!hasOpenaiAccess(options)) throw new ConfigurationError(noKeyMessage('openai'), { setting: 'apiKey', provider: 'openai' });
  return createModelClient({
    provider: 'openai',
    env: openaiEnv(),
    ...(options.openaiApiKey ? { apiKey: options.openaiApiKey } : {}),
    ...(options.settings.openaiBaseUrl ? { baseURL: options.settings.openaiBaseUrl } : {}),
    logger: options.logger,
  });
}

function anthropicModelFromSettings(options: ModelSettingsOptions): ModelClient {
  if (!options.apiKey) throw new ConfigurationError(NO_API_KEY_MESSAGE, { setting: 'apiKey' });
  return createModelClient({
    provider: 'anthropic',
    apiKey: options.apiKey,
    ...(options.settings.anthropicBaseUrl ? { baseURL: options.settings.anthropicBaseUrl } : {}),
    logger: options.logger,
  });
}

function providerModel(provider: ProviderName, options: ModelSettingsOptions): ModelClient {
  return provider === 'openai' ? openaiModelFromSettings(options) : anthropicModelFromSettings(options);
}

/** The fallback's own client; a missing key names the fallback setting, not the primary's. */
function fallbackModel(provider: ProviderName, options: ModelSettingsOptions): ModelClient {
  const usable = provider === 'openai' ? hasOpenaiAccess(options) : Boolean(options.apiKey);
  if (!usable) throw new ConfigurationError(noFallbackKeyMessage(provider), { setting: 'fallback.provider', provider });
  return providerModel(provider, options);
}

/**
 * The run's client: the injected one, the demo model, or the chosen provider's, wrapped with the
 * fallback when one is set. Switches to the fallback and back are warnings in the "Ironbees" log.
 */
export function createModel(options: ModelSettingsOptions): ModelClient {
  if (options.model) return options.model;
  if (options.settings.demoModel) return createModelClient({ provider: 'demo' });
  const primary = providerModel(options.settings.provider, options);
  const fallback = options.settings.fallback;
  if (!fallback) return primary;
  // The same provider with another model needs no second client: the fallback names its model per request.
  const fallbackClient = fallback.provider === options.settings.provider ? primary : fallbackModel(fallback.provider, options);
  return new FallbackModelClient(primary, fallbackClient, fallback, new CircuitBreaker(), (message) => options.logger.warn(message));
}
