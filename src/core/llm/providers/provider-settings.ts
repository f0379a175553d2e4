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
 * An OpenAI-compatible provider's key and base URL (OPENAI_API_KEY and OPENAI_BASE_URL for `openai`),
 * read as the SDK reads them. A base URL without a key is a local server (Ollama, LM Studio, vLLM) and
 * works; no key and no base URL fails before a run.
 */
export function openAICompatibleSettings(
  options: ProviderSettingsInput,
  provider: { name: string; envVariables: { apiKey: string; baseURL: string }; defaultBaseURL?: string },
): ProviderSettings {
  const env = options.env ?? {};
  const { apiKey: keyVariable, baseURL: urlVariable } = provider.envVariables;
  const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env[keyVariable]);
  const baseURL = nonEmpty(options.baseURL) ?? nonEmpty(env[urlVariable]) ?? provider.defaultBaseURL;
  if (!apiKey && !baseURL) {
    const title = provider.name === 'openai' ? 'OpenAI' : provider.name;
    throw new ConfigurationError(
      `No ${title} API key: set ${keyVariable}, or ${urlVariable} for a local OpenAI-compatible server (Ollama, LM Studio, vLLM need no key).`,
      { variable: keyVariable },
    );
  }
  if (apiKey) registerSecret(apiKey);
  return { apiKey: apiKey ?? NO_KEY_PLACEHOLDER, ...(baseURL ? { baseURL } : {}) };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value && value.trim() ? value.trim() : undefined;
}
