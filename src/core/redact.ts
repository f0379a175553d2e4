// The one redactor. Every secret VALUE Ironbees knows (the stored API key, the values of the
// credential variables it keeps from children, MCP header and env tokens) is registered here, and
// everything that leaves the process for a person, a file or the model (logs, `--json` stdout,
// state.json, validations/*.json, events.jsonl, HANDOFF.md, the model requests, error messages, the
// panel) goes through `redact()` at that sink's one writer. Key-shaped strings (`sk-ant-…`, GitHub
// tokens, AWS access key ids, …) are masked as well, for keys Ironbees was never told about (one a
// test printed or the model echoed from a file, say).

/** Shorter values would mask ordinary words; no real key or token is this short. */
export const MIN_SECRET_LENGTH = 8;

export const REDACTED = '[redacted]';

/** Each a fixed prefix then a bounded character class: linear, whatever the text. */
const KEY_SHAPES: readonly RegExp[] = [
  /sk-ant-[A-Za-z0-9_-]{6,}/g,
  // OpenAI (sk-proj-…, sk-svcacct-…, sk-…).
  /\bsk-[A-Za-z0-9_-]{20,}/g,
  // GitHub tokens: personal, OAuth, user-to-server, server-to-server, refresh; fine-grained PATs.
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  // AWS access key ids (long-term and temporary).
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  // Slack tokens.
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  // Google API keys.
  /\bAIza[0-9A-Za-z_-]{35}/g,
];

/** Longest first, so a secret that contains another is masked whole. */
let secrets: string[] = [];

/** Adds a value to mask from now on. Blank or too short values are ignored. */
export function registerSecret(value: string | undefined | null): void {
  const secret = value?.trim();
  if (!secret || secret.length < MIN_SECRET_LENGTH || secrets.includes(secret)) return;
  secrets = [...secrets, secret].sort((a, b) => b.length - a.length);
}

/** Forgets a value (the person removed the stored key). */
export function forgetSecret(value: string | undefined | null): void {
  const secret = value?.trim();
  if (secret) secrets = secrets.filter((known) => known !== secret);
}

/** How many values are registered (for tests and diagnostics; never the values). */
export function registeredSecretCount(): number {
  return secrets.length;
}

/** `text` with every registered secret and every key-shaped string replaced by `[redacted]`. */
export function redact(text: string): string {
  let result = text;
  for (const secret of secrets) {
    if (result.includes(secret)) result = result.split(secret).join(REDACTED);
  }
  for (const shape of KEY_SHAPES) result = result.replace(shape, REDACTED);
  return result;
}

/**
 * A JSON-able value with every string in it redacted (keys too), for traces and snapshots sent to
 * the panel. Values without a secret come back as they were (same object), so this is cheap.
 */
export function redactDeep<T>(value: T, options: RedactDeepOptions = {}): T {
  return redactValue(value, new Set(options.keepKeys ?? [])) as T;
}

export interface RedactDeepOptions {
  /**
   * Property names whose values are kept byte for byte, at any depth: a staged edit's file contents
   * in state.json are what an approval writes to the person's files, so masking them would write
   * `[redacted]` into a file. They are the workspace's own bytes, kept inside the workspace.
   */
  keepKeys?: readonly string[];
}

function redactValue(value: unknown, keep: ReadonlySet<string>): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const next = redactValue(item, keep);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? items : value;
  }
  if (value !== null && typeof value === 'object' && isPlainObject(value)) {
    let changed = false;
    const entries = Object.entries(value).map(([key, item]) => {
      if (keep.has(key)) return [key, item] as const;
      const nextKey = redact(key);
      const next = redactValue(item, keep);
      if (next !== item || nextKey !== key) changed = true;
      return [nextKey, next] as const;
    });
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
