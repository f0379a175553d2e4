// The schema of agent.yaml. Every field carries its own "expected …" wording, so an error can say
// what was wrong in the person's terms (`llmConfig.maxTokens: expected a positive integer, got
// "lots"`) rather than zod's.

import { z } from 'zod';
import { DEFAULT_MODEL } from '../llm/defaults';
import { PROVIDER_NAMES } from '../llm/providers/choice';
import { DEFAULT_MAX_TOKENS } from './agent-definition';
import type { AgentYaml } from './agent-definition';

const positiveInteger = z
  .number({ error: 'expected a positive integer' })
  .int({ error: 'expected a positive integer' })
  .positive({ error: 'expected a positive integer' });

const text = (what: string): z.ZodString =>
  z
    .string({ error: `expected ${what}` })
    .trim()
    .min(1, { error: `expected ${what}` });

export const llmConfigSchema = z.strictObject(
  {
    model: text('a model id such as "claude-sonnet-4-6"').default(DEFAULT_MODEL),
    maxTokens: positiveInteger.default(DEFAULT_MAX_TOKENS),
    temperature: z
      .number({ error: 'expected a number from 0 to 1' })
      .min(0, { error: 'expected a number from 0 to 1' })
      .max(1, { error: 'expected a number from 0 to 1' })
      .optional(),
    // Additive: absent means Anthropic, as before.
    provider: z.enum(PROVIDER_NAMES, { error: `expected one of ${PROVIDER_NAMES.join(', ')}` }).optional(),
  },
  { error: 'expected a mapping with model, maxTokens, temperature and provider' },
);

/** Known settings are checked; others are kept for the tools that read them. */
export const toolConfigSchema = z.looseObject(
  {
    turnBudget: positiveInteger.optional(),
    maxMalformed: z
      .number({ error: 'expected a whole number, 0 or more' })
      .int({ error: 'expected a whole number, 0 or more' })
      .min(0, { error: 'expected a whole number, 0 or more' })
      .optional(),
  },
  { error: 'expected a mapping of tool settings' },
);

export const agentYamlSchema = z.strictObject(
  {
    name: z
      .string({ error: 'expected a name of lowercase letters, digits and dashes' })
      .regex(/^[a-z][a-z0-9-]*$/, { error: 'expected a name of lowercase letters, digits and dashes' }),
    description: text('a one-line description'),
    // YAML reads `version: 1.0` as a number; accept it and keep it as text.
    version: z.union([z.string(), z.number()], { error: 'expected a version such as 1.0.0' }).transform((value) => String(value)),
    requiredTools: z.array(text('a tool name'), { error: 'expected a list of tool names' }).default([]),
    promptTemplate: text('a file name such as prompt.md')
      .refine((value) => !value.includes('..') && !/^[\\/]/.test(value) && !/^[a-zA-Z]:/.test(value), {
        error: 'expected a file name inside the agent folder',
      })
      .default('prompt.md'),
    llmConfig: llmConfigSchema.default({ model: DEFAULT_MODEL, maxTokens: DEFAULT_MAX_TOKENS }),
    toolConfig: toolConfigSchema.default({}),
  },
  { error: 'expected a mapping of agent settings (name, description, version, …)' },
);

// The rest of Ironbees reads AgentYaml (agent-definition.ts, which a start needs without zod): the
// schema's output must stay that shape, both ways, or this does not compile.
type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const outputIsAgentYaml: SameShape<z.output<typeof agentYamlSchema>, AgentYaml> = true;
void outputIsAgentYaml;

export const AGENT_YAML_FIELDS = Object.keys(agentYamlSchema.shape);
