// The demo model answers any agent's terminal tool with the least value its JSON Schema accepts.

import { strict as assert } from 'node:assert';
import { z } from 'zod';
import { leastValue } from '../../../src/core/llm/providers/demo/demo-model';
import { inputJsonSchema } from '../../../src/core/tools/registry';

describe('demo model: the least answer a terminal tool accepts', () => {
  it('fills required fields only, takes the first of an enum, the minimum of a number and as many items as required', () => {
    const schema = z.object({
      verdict: z.enum(['approve', 'request_changes']),
      score: z.number().int().min(3),
      notes: z.array(z.string()).min(2),
      done: z.boolean(),
      extra: z.string().optional(),
    });
    const value = leastValue(inputJsonSchema(schema));
    assert.deepEqual(value, {
      verdict: 'approve',
      score: 3,
      notes: ['[scripted demo model, not an LLM] nothing to report', '[scripted demo model, not an LLM] nothing to report'],
      done: false,
    });
    assert.equal(schema.safeParse(value).success, true);
  });
});
