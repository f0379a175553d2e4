// `npm start`: the main job. Copies the bundled sample C# solution to a scratch folder and runs
// the real `ironbees` CLI on it: real tools, real `dotnet build` / `dotnet test`. With
// ANTHROPIC_API_KEY set it uses Claude; without, the clearly labelled scripted demo model.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const workspace = mkdtempSync(join(tmpdir(), 'ironbees-sample-'));
cpSync(join(root, 'samples', 'calculator'), workspace, { recursive: true });

const args = [join(root, 'dist', 'cli.js'), 'run', 'Fix the failing Calculator test', '--workspace', workspace, '--yes'];
if (!process.env.ANTHROPIC_API_KEY) {
  console.error('No ANTHROPIC_API_KEY: using the scripted demo model (everything else is real).');
  args.push('--demo');
}
console.error(`Sample workspace: ${workspace}`);
const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
console.error(`\nThe run's files are in ${join(workspace, '.ironbees', 'runs')}`);
process.exit(result.status ?? 1);
