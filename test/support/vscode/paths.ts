// Where the test infrastructure finds things: the repository, code-server (installed by
// scripts/install-code-server.mjs into the gitignored .vscode-test/), and Debian's chromium.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const repoRoot = join(__dirname, '..', '..', '..');
export const codeServerVersion = '4.100.3';

const codeServerPackage = join(repoRoot, '.vscode-test', 'code-server', 'node_modules', 'code-server');
/** code-server's own CLI (auth, --install-extension, the full product UI). */
export const codeServerCli = join(codeServerPackage, 'out', 'node', 'entry.js');
/** VS Code's server entry inside code-server: the one that accepts extensionDevelopmentPath. */
export const vscodeServerMain = join(codeServerPackage, 'lib', 'vscode', 'out', 'server-main.js');

export const chromiumPath = process.env.IRONBEES_CHROMIUM ?? '/usr/bin/chromium';

/** Installs code-server when missing (idempotent, ~1–3 min the first time); throws if that fails. */
export function ensureCodeServer(): void {
  if (existsSync(vscodeServerMain) && existsSync(codeServerCli)) return;
  const result = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'install-code-server.mjs')], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('installing code-server failed (see above); try `node scripts/install-code-server.mjs`');
}

export function ensureChromium(): void {
  if (!existsSync(chromiumPath)) {
    throw new Error(`chromium not found at ${chromiumPath}: apt-get install -y chromium (or set IRONBEES_CHROMIUM)`);
  }
}
