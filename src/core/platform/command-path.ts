// A command named without a folder (`dotnet`) is started by its absolute path, found on PATH alone.
// Windows looks in the current folder before PATH (libuv's search, like CreateProcess), and POSIX's
// execvp takes an empty or relative PATH entry for the current folder: either way a repository's own
// `dotnet.exe` or `dotnet` script would run as soon as Ironbees starts `dotnet` in it, before any
// approval. So the current folder, and every PATH entry that is not absolute, is never searched.

import * as fs from 'node:fs';
import * as path from 'node:path';

export interface CommandSearch {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Whether a candidate is a file that can be started (injected by tests that simulate Windows). */
  isRunnable?: (candidate: string) => boolean;
}

function runnable(candidate: string): boolean {
  try {
    if (!fs.statSync(candidate).isFile()) return false;
    if (process.platform !== 'win32') fs.accessSync(candidate, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** PATH as the platform spells it (Windows names are case-insensitive: `Path` is common there). */
function pathVariable(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  if (platform !== 'win32') return env.PATH ?? '';
  return Object.entries(env).find(([name]) => name.toUpperCase() === 'PATH')?.[1] ?? '';
}

/** The absolute path of `command` on PATH's absolute entries, or null. A command with a folder is not searched. */
export function findOnPath(command: string, options: CommandSearch = {}): string | null {
  const platform = options.platform ?? process.platform;
  const api = platform === 'win32' ? path.win32 : path.posix;
  const isRunnable = options.isRunnable ?? runnable;
  // Only programs `spawn` can start without a shell; `.cmd` and `.bat` need one.
  const names = platform === 'win32' && api.extname(command) === '' ? [`${command}.exe`, `${command}.com`] : [command];
  for (const entry of pathVariable(options.env ?? process.env, platform).split(api.delimiter)) {
    const dir = platform === 'win32' ? entry.trim().replace(/^"(.*)"$/, '$1') : entry;
    if (dir === '' || !api.isAbsolute(dir)) continue;
    for (const name of names) {
      const candidate = api.join(dir, name);
      if (isRunnable(candidate)) return candidate;
    }
  }
  return null;
}

/**
 * What to hand `spawn` for `command`: a path as given (the caller chose it), a bare name as its
 * absolute path on PATH. A name found nowhere fails as `spawn` would, with ENOENT.
 */
export function resolveCommand(command: string, options: CommandSearch = {}): string {
  const api = (options.platform ?? process.platform) === 'win32' ? path.win32 : path.posix;
  if (api.isAbsolute(command) || /[\\/]/.test(command)) return command;
  const found = findOnPath(command, options);
  if (found !== null) return found;
  throw Object.assign(new Error(`spawn ${command} ENOENT (not found on PATH)`), {
    code: 'ENOENT',
    syscall: `spawn ${command}`,
    path: command,
  });
}
