// `npm test` and `npm start` start their tools as this Node with each tool's script, so no step needs a
// shell or a `.cmd` shim (Windows); the linux-x64-only stages say why they are skipped elsewhere.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { binCommand, linuxOnlySkipReason, npmCli, npmCommand } from '../../../scripts/tool-command.cjs';

const REPO = path.resolve(__dirname, '..', '..', '..');

describe('scripts/tool-command.cjs', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ironbees-tool-command-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function touch(...parts: string[]): string {
    const file = path.join(dir, ...parts);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '');
    return file;
  }

  it('npm is the script npm started us with (npm_execpath), run by this Node', () => {
    const cli = touch('npm', 'bin', 'npm-cli.js');
    assert.equal(npmCli({ npm_execpath: cli }, path.join(dir, 'nowhere', 'node')), cli);
    assert.deepEqual(npmCommand(['run', 'build'], { npm_execpath: cli }), { cmd: process.execPath, args: [cli, 'run', 'build'] });
  });

  it('without npm_execpath (or with a shim in it), npm-cli.js beside node: the Windows layout, then the POSIX one', () => {
    const windowsCli = touch('nodejs', 'node_modules', 'npm', 'bin', 'npm-cli.js');
    assert.equal(npmCli({ npm_execpath: path.join(dir, 'nodejs', 'npm.cmd') }, path.join(dir, 'nodejs', 'node.exe')), windowsCli);
    const posixCli = touch('usr', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
    assert.equal(
      npmCli({}, path.join(dir, 'usr', 'bin', 'node')),
      path.join(dir, 'usr', 'bin', '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    );
    assert.equal(path.resolve(npmCli({}, path.join(dir, 'usr', 'bin', 'node'))), posixCli);
    assert.throws(() => npmCli({}, path.join(dir, 'empty', 'node')), /npm's CLI was not found: npm_execpath is not set/);
  });

  it("a dependency's executable is its package.json bin, not the node_modules/.bin shim", () => {
    assert.deepEqual(binCommand('mocha', ['--version']), {
      cmd: process.execPath,
      args: [path.join(REPO, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--version'],
    });
    assert.deepEqual(binCommand('typescript', [], 'tsc'), {
      cmd: process.execPath,
      args: [path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc')],
    });
    assert.equal(binCommand('@vscode/vsce', []).args[0], path.join(REPO, 'node_modules', '@vscode', 'vsce', 'vsce'));
  });

  it('the VS Code stages run on linux-x64 only, and say why elsewhere', () => {
    assert.equal(linuxOnlySkipReason('linux', 'x64'), null);
    assert.equal(
      linuxOnlySkipReason('win32', 'x64'),
      'it needs linux-x64 (code-server with its offline ripgrep, apt-get/dpkg, chromium) and this is win32-x64',
    );
    assert.equal(
      linuxOnlySkipReason('darwin', 'arm64'),
      'it needs linux-x64 (code-server with its offline ripgrep, apt-get/dpkg, chromium) and this is darwin-arm64',
    );
    assert.notEqual(linuxOnlySkipReason('linux', 'arm64'), null);
  });

  it('no script or test helper spawns npm or a node_modules/.bin shim by name', () => {
    const files = [
      ...readdirSync(path.join(REPO, 'scripts'))
        .filter((name) => name.endsWith('.mjs'))
        .map((name) => path.join(REPO, 'scripts', name)),
      ...readdirSync(path.join(REPO, 'test', 'support'), { recursive: true, encoding: 'utf8' })
        .filter((name) => /\.(ts|mjs)$/.test(name))
        .map((name) => path.join(REPO, 'test', 'support', name)),
    ];
    const offenders = files.filter((file) =>
      /spawn(Sync)?\(\s*['"]npm['"]|['"]\.bin['"]|node_modules\/\.bin/.test(readFileSync(file, 'utf8')),
    );
    assert.deepEqual(
      offenders.map((file) => path.relative(REPO, file)),
      [],
    );
  });

  it("package.json's mocha globs are in double quotes (cmd.exe keeps single quotes in the pattern)", () => {
    const scripts = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const singleQuoted = Object.entries(scripts)
      .filter(([, command]) => /'[^']*\*[^']*'/.test(command))
      .map(([name]) => name);
    assert.deepEqual(singleQuoted, []);
    assert.equal(scripts['test:unit'], 'mocha "test/unit/**/*.test.ts"');
  });
});
