// Packages an extension folder into a .vsix with @vscode/vsce, offline (no dependencies are
// bundled: the extension ships as esbuild output).
import { spawnSync } from 'node:child_process';
import { binCommand } from '../../../scripts/tool-command.cjs';

export function packageExtension(extensionDir: string, outFile: string): string {
  const vsce = binCommand('@vscode/vsce', [
    'package',
    '--no-dependencies',
    '--allow-missing-repository',
    '--skip-license',
    '--out',
    outFile,
  ]);
  const result = spawnSync(vsce.cmd, vsce.args, {
    cwd: extensionDir,
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (result.status !== 0)
    throw new Error(`vsce package failed in ${extensionDir} (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  return outFile;
}
