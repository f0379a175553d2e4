import assert from 'node:assert/strict';
import { MODEL_PRICES, modelFamily, priceFor, usageWithCost } from '../../../src/core/llm/providers/anthropic/pricing';
import { addUsage } from '../../../src/core/model';
import { formatUsage } from '../../../src/cli/render/state';

describe('pricing', () => {
  it('matches dated snapshots, Vertex versions and -latest to their family', () => {
    assert.equal(modelFamily('claude-sonnet-4-5-20250929'), 'claude-sonnet-4-5');
    assert.equal(modelFamily('claude-opus-4-1@20250805'), 'claude-opus-4-1');
    assert.equal(modelFamily('claude-3-5-haiku-latest'), 'claude-3-5-haiku');
    assert.equal(modelFamily('Claude-Haiku-4-5'), 'claude-haiku-4-5');
  });

  it('does not take a newer model for an older family by prefix', () => {
    assert.equal(modelFamily('claude-opus-4-7'), null, 'opus-4-7 is not opus-4');
    assert.equal(modelFamily('claude-sonnet-4-6'), 'claude-sonnet-4-6');
    assert.equal(priceFor('claude-opus-4-5')?.inputPerMTok, 5);
    assert.equal(priceFor('claude-opus-4-20250514')?.inputPerMTok, 15);
  });

  it('derives cache prices from the input price (write 1.25x, read 0.1x)', () => {
    assert.deepEqual(MODEL_PRICES['claude-sonnet-4-5'], {
      inputPerMTok: 3,
      outputPerMTok: 15,
      cacheWritePerMTok: 3.75,
      cacheReadPerMTok: 0.3,
    });
    assert.deepEqual(MODEL_PRICES['claude-haiku-4-5'], {
      inputPerMTok: 1,
      outputPerMTok: 5,
      cacheWritePerMTok: 1.25,
      cacheReadPerMTok: 0.1,
    });
  });

  it('computes the cost of every kind of token', () => {
    const usage = usageWithCost('claude-haiku-4-5', {
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      cacheReadTokens: 1_000_000,
      cacheWriteTokens: 200_000,
    });
    // $1 + $0.50 + $0.10 + $0.25
    assert.equal(usage.costUsd, 1.85);
    assert.equal(usage.cacheReadTokens, 1_000_000);
  });

  it('marks the cost of an unknown model unknown (never a figure), keeps it through sums, and warns once per model', () => {
    const warnings: string[] = [];
    const tokens = { inputTokens: 10, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const unknown = usageWithCost('claude-unknown-pricing-test', tokens, (m) => warnings.push(m));
    assert.deepEqual(unknown, { ...tokens, costUsd: 0, costUnknown: true });
    const known = usageWithCost('claude-sonnet-4-6', tokens);
    assert.equal(known.costUnknown, undefined);
    assert.equal(addUsage(known, unknown).costUnknown, true);
    assert.equal(addUsage(known, known).costUnknown, undefined);
    assert.equal(formatUsage(addUsage(known, unknown)), '20 in / 20 out tokens · cost unknown');
    usageWithCost('claude-unknown-pricing-test', tokens, (m) => warnings.push(m));
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0],
      /No price is known for model "claude-unknown-pricing-test"; its tokens are counted, its cost is shown as unknown/,
    );
  });
});
