// A model of Anthropic's prompt cache, for measuring where our breakpoints put the cached share
// (the fake server has no cache of its own). The rules, from the prompt-caching docs:
// - the prompt is the blocks tools → system → messages, in that order;
// - each `cache_control` breakpoint writes the prefix up to and including its block;
// - at each breakpoint the API also looks for an already cached prefix ending at one of the 20
//   blocks before it (the look-back), and reads the longest one it finds.
// Tokens are estimated from each block's JSON (4 characters a token): only shares are compared.

import type { FakeRequestBody } from './fake-anthropic';

interface Block {
  key: string;
  tokens: number;
  breakpoint: boolean;
}

export const LOOK_BACK_BLOCKS = 20;

function flatten(body: FakeRequestBody): Block[] {
  const blocks: Block[] = [];
  const add = (value: Record<string, unknown>): void => {
    const { cache_control: cache, ...rest } = value;
    const json = JSON.stringify(rest);
    blocks.push({ key: json, tokens: Math.ceil(json.length / 4), breakpoint: cache !== undefined });
  };
  for (const tool of body.tools ?? []) add(tool);
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
  for (const block of system) add(block);
  for (const message of body.messages) {
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    for (const block of content) add({ role: message.role, ...block });
  }
  return blocks;
}

export interface CacheOutcome {
  totalTokens: number;
  cacheReadTokens: number;
  /** cacheReadTokens / totalTokens */
  cachedShare: number;
}

export class PromptCacheSim {
  private readonly cached = new Set<string>();

  /** Sends one request through the cache: what it reads, and the prefixes it writes. */
  request(body: FakeRequestBody): CacheOutcome {
    const blocks = flatten(body);
    const prefixKeys: string[] = [];
    const prefixTokens: number[] = [];
    blocks.forEach((block, i) => {
      prefixKeys.push(`${i === 0 ? '' : prefixKeys[i - 1]}\u0000${block.key}`);
      prefixTokens.push((i === 0 ? 0 : prefixTokens[i - 1]) + block.tokens);
    });
    let readUpTo = -1;
    blocks.forEach((block, i) => {
      if (!block.breakpoint) return;
      for (let j = i; j >= Math.max(0, i - LOOK_BACK_BLOCKS); j -= 1) {
        if (this.cached.has(prefixKeys[j])) {
          readUpTo = Math.max(readUpTo, j);
          break;
        }
      }
    });
    blocks.forEach((block, i) => {
      if (block.breakpoint) this.cached.add(prefixKeys[i]);
    });
    const totalTokens = prefixTokens.at(-1) ?? 0;
    const cacheReadTokens = readUpTo < 0 ? 0 : prefixTokens[readUpTo];
    return { totalTokens, cacheReadTokens, cachedShare: totalTokens === 0 ? 0 : cacheReadTokens / totalTokens };
  }
}
