// Publishes the Roslyn engine (roslyn/Ironbees.Roslyn) framework-dependent into dist/roslyn/, the
// folder the .vsix ships and the client looks in. Skipped when nothing under roslyn/ is newer than
// the last publish, so `npm run build` stays quick; skipped with a warning when there is no dotnet
// (Ironbees then answers symbols from its text index).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PROJECT_DIR = 'roslyn';
const OUT_DIR = join('dist', 'roslyn');
const STAMP = join(OUT_DIR, '.published');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'bin' || entry.name === 'obj') continue;
    const full = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

export function publishRoslynEngine({ force = false } = {}) {
  if (!existsSync(PROJECT_DIR)) return 'absent';
  if (!force && existsSync(STAMP) && statSync(STAMP).mtimeMs >= newestSource(PROJECT_DIR)) return 'up to date';
  const result = spawnSync(
    'dotnet',
    [
      'publish',
      join(PROJECT_DIR, 'Ironbees.Roslyn', 'Ironbees.Roslyn.csproj'),
      '-c',
      'Release',
      '-o',
      OUT_DIR,
      '--nologo',
      '-v',
      'quiet',
      '-p:UseAppHost=false',
    ],
    { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1' } },
  );
  if (result.error) {
    console.warn(`build-roslyn: dotnet is not available (${result.error.message}); the C# engine was not built.`);
    return 'skipped';
  }
  if (result.status !== 0) throw new Error(`dotnet publish of the C# engine failed (exit ${result.status})`);
  writeFileSync(STAMP, new Date().toISOString());
  return 'published';
}

if (process.argv[1] && process.argv[1].endsWith('build-roslyn.mjs')) {
  console.log(`C# engine: ${publishRoslynEngine({ force: process.argv.includes('--force') })}`);
}
