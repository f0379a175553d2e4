// The Anthropic Messages API (Claude).

import { DEFAULT_MODEL } from '../../defaults';
import type { ModelProvider } from '../provider';
import { anthropicSettings } from '../provider-settings';

export const anthropicProvider = {
  name: 'anthropic',
  label: 'Anthropic Messages API (Claude).',
  envVariables: { apiKey: 'ANTHROPIC_API_KEY', baseURL: 'ANTHROPIC_BASE_URL' },
  defaultModel: DEFAULT_MODEL,
  settings: anthropicSettings,
  load: async (settings) => new (await import('./anthropic.js')).AnthropicModelClient(settings),
} as const satisfies ModelProvider<'anthropic'>;
