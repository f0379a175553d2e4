// Where Ironbees keeps what outlives a run (the dotnet SDK answer, the CLI's code cache). Its own
// file, with only node:os and node:path, because the CLI's tiny start-up bundle needs it too.

import * as os from 'node:os';
import * as path from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/** IRONBEES_CACHE_DIR, else the platform's user cache folder. */
export function userCacheDir(env: Env = process.env): string {
  if (env.IRONBEES_CACHE_DIR) return env.IRONBEES_CACHE_DIR;
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA ?? path.join(os.homedir(), 'AppData', 'Local'), 'ironbees', 'cache');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches', 'ironbees');
  return path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'ironbees');
}
