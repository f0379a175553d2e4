// What a model call costs. Prices are US dollars per million tokens, from Anthropic's public price
// list; cache writes are the 5-minute TTL rate (1.25× input) and cache reads 0.1× input, which is
// what `cache_control: {type: 'ephemeral'}` buys. A model not listed is reported once and its
// usage carries `costUnknown`, so a new model never breaks a run and no wrong figure is shown.

import type { Usage } from '../../../model';

export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  cacheWritePerMTok: number;
  cacheReadPerMTok: number;
}

function price(input: number, output: number): ModelPrice {
  return {
    inputPerMTok: input,
    outputPerMTok: output,
    cacheWritePerMTok: Math.round(input * 1.25 * 1000) / 1000,
    cacheReadPerMTok: Math.round(input * 0.1 * 1000) / 1000,
  };
}

/** Keyed by model family (the id without its date suffix). */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'claude-opus-4-6': price(5, 25),
  'claude-opus-4-5': price(5, 25),
  'claude-opus-4-1': price(15, 75),
  'claude-opus-4': price(15, 75),
  'claude-sonnet-4-6': price(3, 15),
  'claude-sonnet-4-5': price(3, 15),
  'claude-sonnet-4': price(3, 15),
  'claude-3-7-sonnet': price(3, 15),
  'claude-3-5-sonnet': price(3, 15),
  'claude-haiku-4-5': price(1, 5),
  'claude-3-5-haiku': price(0.8, 4),
  'claude-3-haiku': price(0.25, 1.25),
  'claude-3-opus': price(15, 75),
});

// A dated snapshot ("-20250929"), a Vertex version ("@20250929") or "-latest" names the same
// family. Anything else after a known family ("claude-opus-4-7") is a different model with its
// own price, so plain prefix matching would be wrong.
const SNAPSHOT_SUFFIX = /(?:[-@]\d{8}|-latest)$/;

/** The family a model id belongs to, or null when it is not in the price list. */
export function modelFamily(modelId: string): string | null {
  const bare = modelId.trim().toLowerCase().replace(SNAPSHOT_SUFFIX, '');
  return Object.prototype.hasOwnProperty.call(MODEL_PRICES, bare) ? bare : null;
}

export function priceFor(modelId: string): ModelPrice | null {
  const family = modelFamily(modelId);
  return family ? MODEL_PRICES[family] : null;
}

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

const warnedModels = new Set<string>();

/**
 * Tokens and dollars of one call. `warn` is told once per unknown model id (per process), so the
 * person learns the cost shown is not real without a warning on every turn.
 */
export function usageWithCost(modelId: string, tokens: TokenCounts, warn: (message: string) => void = defaultWarn): Usage {
  const known = priceFor(modelId);
  if (!known && !warnedModels.has(modelId)) {
    warnedModels.add(modelId);
    warn(
      `No price is known for model "${modelId}"; its tokens are counted, its cost is shown as unknown. Known models: ${Object.keys(MODEL_PRICES).join(', ')}.`,
    );
  }
  const costUsd = known
    ? (tokens.inputTokens * known.inputPerMTok +
        tokens.outputTokens * known.outputPerMTok +
        tokens.cacheWriteTokens * known.cacheWritePerMTok +
        tokens.cacheReadTokens * known.cacheReadPerMTok) /
      1_000_000
    : 0;
  return { ...tokens, costUsd: Math.round(costUsd * 1e6) / 1e6, ...(known ? {} : { costUnknown: true as const }) };
}

function defaultWarn(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}
