// The model client for "ironbees.provider": "openai" in the editor: the key from SecretStorage (or
// OPENAI_API_KEY), the base URL from "ironbees.openaiBaseUrl" (or OPENAI_BASE_URL), built by the
// same provider registry as the CLI's (core/runtime/model-client.ts). No key and no base URL is a message that names the provider.

import { ConfigurationError } from '../core/errors';
import type { Logger } from '../core/host';
import type { ModelClient } from '../core/llm/port';
import { createModelClient } from '../core/runtime';
import type { IronbeesSettings } from './settings';
import { noKeyMessage } from './provider-settings';

export function openaiModelFromSettings(options: { settings: IronbeesSettings; openaiApiKey?: string; logger: Logger }): ModelClient {
  const env = { OPENAI_API_KEY: process.env.OPENAI_API_KEY, OPENAI_BASE_URL: process.env.OPENAI_BASE_URL };
  if (!options.openaiApiKey && !env.OPENAI_API_KEY && !options.settings.openaiBaseUrl && !env.OPENAI_BASE_URL) {
    throw new ConfigurationError(noKeyMessage('openai'), { setting: 'apiKey', provider: 'openai' });
  }
  return createModelClient({
    provider: 'openai',
    env,
    ...(options.openaiApiKey ? { apiKey: options.openaiApiKey } : {}),
    ...(options.settings.openaiBaseUrl ? { baseURL: options.settings.openaiBaseUrl } : {}),
    logger: options.logger,
  });
}
