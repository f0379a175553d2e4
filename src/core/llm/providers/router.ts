// One ModelClient over several providers: each request goes to the client of the provider it
// names (ModelRequest.provider, set from the agent's model choice), Anthropic when it names none.
// Clients are made on first use, so a run that never calls a provider never needs its key; the
// run's own provider is made up front by the composition root so a missing key fails before work.

import { ConfigurationError } from '../../errors';
import type { ModelClient, ModelRequest, ModelResponse } from '../port';
import { DEFAULT_PROVIDER } from './choice';

export type ProviderFactories = Partial<Record<string, () => ModelClient>>;

export class ProviderRouter implements ModelClient {
  private readonly made = new Map<string, ModelClient>();

  constructor(private readonly factories: ProviderFactories) {}

  /** The client of a provider, made now if it was not yet (throws its configuration error, e.g. no key). */
  clientFor(provider: string): ModelClient {
    const existing = this.made.get(provider);
    if (existing) return existing;
    const factory = this.factories[provider];
    if (!factory) throw new ConfigurationError(`No model provider "${provider}" is configured here.`, { provider });
    const client = factory();
    this.made.set(provider, client);
    return client;
  }

  complete(request: ModelRequest): Promise<ModelResponse> {
    return this.clientFor(request.provider ?? DEFAULT_PROVIDER).complete(request);
  }
}
