// Who may use the served API, and on what: the bearer token (compared in constant time), the
// browser session a one-time login URL opens (an HttpOnly, SameSite=Strict cookie), the page's own
// origin only, and workspaces inside the allowed roots only (by real path, so a symlink inside a
// root that points out of it is outside).

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export const SESSION_COOKIE = 'ironbees_session';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Equal digests of equal length: the time taken says nothing about how much of the token matched. */
export function tokenMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerOf(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1] : null;
}

/** One-time login codes (a URL a person opens once) and the browser sessions they start. */
export class Sessions {
  private readonly codes = new Map<string, number>();
  private readonly sessions = new Set<string>();

  constructor(private readonly codeLifetimeMs = 10 * 60_000) {}

  /** A new one-time code, valid for a few minutes. */
  newCode(): string {
    const code = randomBytes(24).toString('base64url');
    this.codes.set(digest(code).toString('hex'), Date.now() + this.codeLifetimeMs);
    return code;
  }

  /** Spends the code: a session id for the cookie, or null when the code is unknown, spent or expired. */
  redeem(code: string): string | null {
    const key = digest(code).toString('hex');
    const expires = this.codes.get(key);
    this.codes.delete(key);
    if (expires === undefined || expires < Date.now()) return null;
    const session = randomBytes(32).toString('base64url');
    this.sessions.add(digest(session).toString('hex'));
    return session;
  }

  has(session: string | undefined): boolean {
    return !!session && this.sessions.has(digest(session).toString('hex'));
  }
}

/**
 * The origins a browser may send requests from: the server's own, by the host it listens on and by
 * the loopback names. A request without Origin (curl, a script, a same-origin GET) is not a browser
 * page of another site.
 */
export function allowedOrigins(host: string, port: number): Set<string> {
  const names = new Set([host, '127.0.0.1', 'localhost', '[::1]']);
  return new Set([...names].map((name) => `http://${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}:${port}`));
}

export function originAllowed(origin: string | undefined, allowed: ReadonlySet<string>): boolean {
  return origin === undefined || allowed.has(origin);
}

export type WorkspaceCheck = { ok: true; workspace: string } | { ok: false; status: 400 | 403; error: string };

/** The workspace's real path when it is a folder inside one of the roots (real paths too). */
export async function workspaceInRoots(requested: string, roots: readonly string[]): Promise<WorkspaceCheck> {
  if (!path.isAbsolute(requested)) return { ok: false, status: 400, error: 'workspace must be an absolute path.' };
  let real: string;
  try {
    real = await fs.realpath(requested);
  } catch {
    return { ok: false, status: 400, error: `workspace ${requested} does not exist.` };
  }
  const inside = roots.some((root) => {
    const relative = path.relative(root, real);
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  });
  if (!inside) return { ok: false, status: 403, error: `workspace ${requested} is outside every --workspace-root.` };
  if (!(await fs.stat(real)).isDirectory()) return { ok: false, status: 400, error: `workspace ${requested} is not a folder.` };
  return { ok: true, workspace: real };
}
