// The key and endpoint of each SDK provider, read from what the face gave and the environment, without
// loading the SDK: a run checks them before any work starts (a missing key fails at once), and the SDK
// itself loads with the first call (lazy-client.ts).

import { ConfigurationError } from '../../errors';
import { registerSecret } from '../../redact';

type Env = Readonly<Record<string, string | undefined>>;

export interface ProviderSettingsInput {
  env?: Env;
  apiKey?: string;
  baseURL?: string;
}

export interface ProviderSettings {
  apiKey: string;
  baseURL?: string;
}

/**
 * Local servers take any key, and the OpenAI SDK refuses to start without one; this stands in for it.
 * It is sent only to a base URL the person chose, never to api.openai.com.
 */
export const NO_KEY_PLACEHOLDER = 'no-key';

/** ANTHROPIC_API_KEY (required) and ANTHROPIC_BASE_URL; the key is masked from here on. */
export function anthropicSettings(options: ProviderSettingsInput): ProviderSettings {
  const env = options.env ?? process.env;
  const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env.ANTHROPIC_API_KEY);
  if (!apiKey) {
    throw new ConfigurationError(
      'No Anthropic API key: set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for a proxy or gateway), or use --demo for the scripted demo model.',
      { variable: 'ANTHROPIC_API_KEY' },
    );
  }
  registerSecret(apiKey);
  const baseURL = nonEmpty(options.baseURL) ?? nonEmpty(env.ANTHROPIC_BASE_URL);
  return { apiKey, ...(baseURL ? { baseURL } : {}) };
}

/**
 * OPENAI_API_KEY and OPENAI_BASE_URL, read as the SDK reads them. A base URL without a key is a
 * local server (Ollama, LM Studio, vLLM) and works; no key for api.openai.com fails before a run.
 */
export function openAISettings(options: ProviderSettingsInput): ProviderSettings {
  const env = options.env ?? {};
  const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env.OPENAI_API_KEY);
  const baseURL = nonEmpty(options.baseURL) ?? nonEmpty(env.OPENAI_BASE_URL);
  if (!apiKey && !baseURL) {
    throw new ConfigurationError(
      'No OpenAI API key: set OPENAI_API_KEY, or OPENAI_BASE_URL for a local OpenAI-compatible server (Ollama, LM Studio, vLLM need no key).',
      { variable: 'OPENAI_API_KEY' },
    );
  }
  return { apiKey: apiKey ?? NO_KEY_PLACEHOLDER, ...(baseURL ? { baseURL } : {}) };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value && value.trim() ? value.trim() : undefined;
}
