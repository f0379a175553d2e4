// How a bad agent file is reported: its path, the field and what was expected, all problems at once,
// as one AgentConfigError (a ConfigurationError: the CLI exits 2, nothing changed).

import { ConfigurationError } from '../errors';

export interface AgentConfigProblem {
  /** As shown to the person: relative to the package (bundled) or to the workspace root. */
  file: string;
  /** Dotted field path (`llmConfig.maxTokens`), or null for the file as a whole. */
  field: string | null;
  message: string;
}

export class AgentConfigError extends ConfigurationError {
  constructor(readonly problems: readonly AgentConfigProblem[]) {
    super(problems.map(formatProblem).join('\n'), { problems });
  }
}

export function formatProblem(problem: AgentConfigProblem): string {
  return problem.field ? `${problem.file}: ${problem.field}: ${problem.message}` : `${problem.file}: ${problem.message}`;
}

/** A value as the person wrote it, for "expected …, got …". */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
