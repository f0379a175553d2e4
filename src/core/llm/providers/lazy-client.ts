// A provider's client whose SDK loads with its first call: the Anthropic and OpenAI SDKs are a large
// part of the CLI bundle's start-up, and a run uses at most the providers its agents name (a demo run
// none). The configuration was checked before (provider-settings.ts), so only the loading is deferred.

import type { ModelClient, ModelRequest, ModelResponse } from '../port';

export function lazyModelClient(load: () => Promise<ModelClient>): ModelClient {
  let client: Promise<ModelClient> | undefined;
  return {
    complete: async (request: ModelRequest): Promise<ModelResponse> => (await (client ??= load())).complete(request),
  };
}
