// The one redactor. Every secret VALUE Ironbees knows (the stored API key, the values of the
// credential variables it keeps from children, MCP header and env tokens) is registered here, and
// everything that leaves the process for a person or a file (logs, events.jsonl, HANDOFF.md, error
// messages, the panel) goes through `redact()`. Key-shaped strings (`sk-ant-…`) are masked as well,
// for keys Ironbees was never told about (one the model echoed from a file, say).

/** Shorter values would mask ordinary words; no real key or token is this short. */
export const MIN_SECRET_LENGTH = 8;

export const REDACTED = '[redacted]';

const KEY_SHAPES: readonly RegExp[] = [/sk-ant-[A-Za-z0-9_-]{6,}/g];

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
export function redactDeep<T>(value: T): T {
  return redactValue(value) as T;
}

function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const next = redactValue(item);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? items : value;
  }
  if (value !== null && typeof value === 'object' && isPlainObject(value)) {
    let changed = false;
    const entries = Object.entries(value).map(([key, item]) => {
      const nextKey = redact(key);
      const next = redactValue(item);
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
