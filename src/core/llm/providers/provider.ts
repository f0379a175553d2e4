// What a model provider declares, once, in its own folder (providers/<name>/provider.ts): its name,
// the environment variables its key and endpoint come from, its default model and how its settings
// are read, and how its client is made. The registry (registry.ts) lists the modules; the provider
// names every face accepts, and their type, are read from that list.

import type { Logger } from '../../host';
import type { ModelClient } from '../port';
import type { ProviderSettings, ProviderSettingsInput } from './provider-settings';

export interface ModelProvider<Name extends string = string> {
  readonly name: Name;
  /** One line for the CLI's help and the editor's settings. */
  readonly label: string;
  /** The variables the key and the endpoint are read from when a face does not give them, key first. */
  readonly envVariables: { readonly apiKey: string; readonly baseURL: string };
  /** The model used when neither the run nor the agent names one for this provider (none: it must be named). */
  readonly defaultModel?: string;
  /** The key and endpoint, checked without loading the provider's SDK: a ConfigurationError when unusable. */
  settings(input: ProviderSettingsInput): ProviderSettings;
  /** The client; its SDK loads here, at the provider's first call. */
  load(settings: ProviderSettings & { logger?: Logger }): Promise<ModelClient>;
}
