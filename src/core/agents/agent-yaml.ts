// Reads one agent.yaml text: YAML, then the schema. The loader reads every agent this way at run
// time; the build checks the bundled ones the same way (agent-precheck.ts).

import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { z } from 'zod';
import type { AgentYaml } from './agent-definition';
import { AGENT_YAML_FIELDS, agentYamlSchema, llmConfigSchema } from './agent-schema';
import type { AgentConfigProblem } from './agent-problems';
import { describeValue } from './agent-problems';

/** The checked fields of `source` (shown to the person as `file`), or every problem found in it. */
export function parseAgentYaml(source: string, file: string): { yaml: AgentYaml } | { problems: AgentConfigProblem[] } {
  let raw: unknown;
  try {
    raw = parseYaml(source, { prettyErrors: true });
  } catch (error) {
    return { problems: [yamlProblem(file, error)] };
  }
  if (raw === null || raw === undefined) {
    return { problems: [{ file, field: null, message: `the file is empty; expected the fields ${AGENT_YAML_FIELDS.join(', ')}` }] };
  }
  // Each definition is checked once per run: zod's compiled fast path would cost more than it saves.
  const parsed = agentYamlSchema.safeParse(raw, { jitless: true });
  if (!parsed.success) return { problems: parsed.error.issues.flatMap((issue) => schemaProblems(file, raw, issue)) };
  return { yaml: parsed.data };
}

function yamlProblem(file: string, error: unknown): AgentConfigProblem {
  if (error instanceof YAMLParseError) {
    const position = error.linePos?.[0];
    const where = position ? `line ${position.line}, column ${position.col}: ` : '';
    const firstLine = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    return { file, field: null, message: `invalid YAML at ${where}${firstLine}` };
  }
  return { file, field: null, message: `invalid YAML: ${error instanceof Error ? error.message : String(error)}` };
}

function schemaProblems(file: string, raw: unknown, issue: z.core.$ZodIssue): AgentConfigProblem[] {
  if (issue.code === 'unrecognized_keys') {
    const known = issue.path.length === 0 ? AGENT_YAML_FIELDS : (NESTED_FIELDS[String(issue.path[0])] ?? []);
    return issue.keys.map((key) => ({
      file,
      field: formatPath([...issue.path, key]),
      message: `unknown field${known.length ? `; expected one of ${known.join(', ')}` : ''}`,
    }));
  }
  const field = issue.path.length > 0 ? formatPath(issue.path) : null;
  return [{ file, field, message: `${issue.message}, got ${describeValue(valueAt(raw, issue.path))}` }];
}

const NESTED_FIELDS: Record<string, readonly string[]> = { llmConfig: Object.keys(llmConfigSchema.shape) };

function formatPath(segments: readonly PropertyKey[]): string {
  return segments.reduce<string>((out, segment) => {
    if (typeof segment === 'number') return `${out}[${segment}]`;
    return out ? `${out}.${String(segment)}` : String(segment);
  }, '');
}

function valueAt(raw: unknown, segments: readonly PropertyKey[]): unknown {
  let current: unknown = raw;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}
