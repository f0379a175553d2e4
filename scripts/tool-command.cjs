// How scripts and tests start a Node tool without a shell, on every OS: this Node (`process.execPath`)
// with the tool's JavaScript entry. `npm` and `node_modules/.bin/*` are shell scripts, and `.cmd` shims
// on Windows, which `spawn` cannot start without a shell (ENOENT; EINVAL since Node 20.12.2 refuses
// `.cmd` files without one). CommonJS, so the .mjs scripts and the TypeScript test helpers share it.
'use strict';

const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');

/** npm's CLI script: the one that started us (`npm_execpath`), else the one installed beside this Node. */
function npmCli(env = process.env, execPath = process.execPath) {
  const started = env.npm_execpath;
  if (started && /\.c?js$/i.test(started) && existsSync(started)) return started;
  const dir = path.dirname(execPath);
  // Windows and macOS/Linux installers lay npm out differently beside node.
  const candidates = [
    path.join(dir, 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    path.join(dir, '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found)
    throw new Error(`npm's CLI was not found: npm_execpath is not set and none of ${candidates.join(', ')} exists; run this through npm`);
  return found;
}

/** `npm <args>` as a command and arguments `spawn` starts without a shell. */
function npmCommand(args, env = process.env) {
  return { cmd: process.execPath, args: [npmCli(env), ...args] };
}

/** A dependency's executable (`bin` in its package.json) as this Node and its script, never the .bin shim. */
function binCommand(pkg, args, name = pkg.replace(/^@[^/]+\//, '')) {
  const dir = path.join(root, 'node_modules', ...pkg.split('/'));
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin && manifest.bin[name];
  if (!bin) throw new Error(`${pkg} declares no executable named ${name}`);
  return { cmd: process.execPath, args: [path.join(dir, bin), ...args] };
}

/**
 * Why a step that needs linux-x64 (code-server with its offline ripgrep, apt-get and dpkg, chromium)
 * cannot run here; null where it can.
 */
function linuxOnlySkipReason(platform = process.platform, arch = process.arch) {
  if (platform === 'linux' && arch === 'x64') return null;
  return `it needs linux-x64 (code-server with its offline ripgrep, apt-get/dpkg, chromium) and this is ${platform}-${arch}`;
}

module.exports = { npmCli, npmCommand, binCommand, linuxOnlySkipReason };
