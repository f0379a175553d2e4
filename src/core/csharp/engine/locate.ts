// Where the published engine is: beside the bundle that runs (dist/roslyn/ next to dist/cli.js and
// dist/extension-heavy.js, also inside the .vsix), or in the checkout's dist/ when running from
// source (tests, benches). IRONBEES_ROSLYN_ENGINE names another build; IRONBEES_ROSLYN=0 turns the
// engine off (the text index answers).

import { existsSync } from 'node:fs';
import * as path from 'node:path';

export const ENGINE_FILE = 'Ironbees.Roslyn.dll';

export function engineDisabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.IRONBEES_ROSLYN === '0';
}

/** The engine's dll, or null when it was not built (npm run build publishes it). */
export function locateEngine(env: NodeJS.ProcessEnv = process.env, from: string = __dirname): string | null {
  if (env.IRONBEES_ROSLYN_ENGINE) return existsSync(env.IRONBEES_ROSLYN_ENGINE) ? env.IRONBEES_ROSLYN_ENGINE : null;
  let dir = from;
  for (let up = 0; up < 6; up++) {
    for (const candidate of [path.join(dir, 'roslyn', ENGINE_FILE), path.join(dir, 'dist', 'roslyn', ENGINE_FILE)]) {
      if (existsSync(candidate)) return candidate;
    }
    dir = path.dirname(dir);
  }
  return null;
}
