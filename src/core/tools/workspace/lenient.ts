// Zod pieces that accept what models actually send: numbers as strings, "false" as a string, null
// for "not given", arrays as JSON text. Each keeps an explicit JSON Schema (`meta`) so the model is
// still told the clean type.

import { z } from 'zod';

const absentWhenEmpty = (v: unknown): unknown => (v === null || v === '' ? undefined : v);

/** A required, non-empty string whose errors say what the field is for. */
export function requiredText(field: string, meaning: string, options: { trim?: boolean } = {}): z.ZodString {
  const message = `${field} is required: ${meaning}`;
  const base = z.string({ error: (issue) => (issue.input === undefined ? message : `${field} must be text: ${meaning}`) });
  return (options.trim === false ? base : base.trim()).min(1, message);
}

/** An optional integer that also accepts "12" and treats null or "" as not given. */
export function optionalInt(description: string): z.ZodType<number | undefined> {
  return z.preprocess(absentWhenEmpty, z.coerce.number().int().optional()).optional().meta({ type: 'integer', description });
}

/** An optional boolean that reads "true"/"false" strings as booleans (z.coerce would make "false" true). */
export function optionalBool(description: string): z.ZodType<boolean | undefined> {
  return z
    .preprocess((v) => {
      const value = absentWhenEmpty(v);
      if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
      return value;
    }, z.boolean().optional())
    .optional()
    .meta({ type: 'boolean', description });
}

/** An optional string where null means "not given". */
export function optionalString(description: string): z.ZodType<string | undefined> {
  return z
    .preprocess((v) => (v === null ? undefined : v), z.string().optional())
    .optional()
    .meta({ type: 'string', description });
}

/** Arrays and objects that a model sent as JSON text are parsed; anything else passes through. */
export function parseJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (!/^[[{]/.test(trimmed)) return value;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return value;
  }
}

/** Upper-cases a string so "modify" passes as MODIFY. */
export function upperCased(value: unknown): unknown {
  return typeof value === 'string' ? value.trim().toUpperCase() : value;
}
