// The flags of issue 13: provider, context files, budgets, fallback, pace.

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { parseCliArgs } from '../../../src/cli/args';
import type { RunArgs } from '../../../src/cli/args';

const CWD = path.resolve('/work/here');
const run = (...flags: string[]): RunArgs => parseCliArgs(['run', 'Fix it', ...flags], CWD) as RunArgs;

describe('run flags for providers, instructions, budgets, fallback and pace', () => {
  it('reads every flag into the run args', () => {
    const args = run(
      '--provider',
      'OpenAI',
      '--model',
      'gpt-4.1',
      '--context',
      'docs/a.md',
      '--context',
      '/abs/b.md',
      '--max-cost',
      '2.5',
      '--max-tokens',
      '200000',
      '--max-minutes',
      '30',
      '--fallback-provider',
      'anthropic',
      '--fallback-model',
      'claude-haiku-4-5',
      '--min-call-interval',
      '1.5',
    );
    assert.equal(args.provider, 'openai');
    assert.deepEqual(args.contextFiles, [path.join(CWD, 'docs/a.md'), path.resolve('/abs/b.md')]);
    assert.deepEqual(args.budget, { maxCostUsd: 2.5, maxTokens: 200000, maxMinutes: 30 });
    assert.deepEqual(args.fallback, { provider: 'anthropic', model: 'claude-haiku-4-5' });
    assert.equal(args.minCallIntervalMs, 1500);
  });

  it('leaves them all out when not given', () => {
    const args = run();
    for (const key of ['provider', 'contextFiles', 'budget', 'fallback', 'minCallIntervalMs'] as const)
      assert.equal(args[key], undefined, key);
  });

  it('refuses bad values with the flag named', () => {
    assert.throws(() => run('--provider', 'gemini'), /--provider must be one of anthropic, openai \(got "gemini"\)/);
    assert.throws(() => run('--max-cost=0'), /--max-cost must be a positive number \(got "0"\)/);
    assert.throws(() => run('--max-tokens', '1.5'), /--max-tokens must be a positive whole number \(got "1.5"\)/);
    assert.throws(() => run('--fallback-provider', 'openai'), /--fallback-model is needed with a fallback/);
    assert.throws(() => run('--context', ' '), /--context needs a file/);
  });
});
