// The sandbox's bwrap options (src/core/platform/sandbox.ts) and the mode rules, without starting dotnet:
// which folders are writable, what is hidden, when the network is there, and what `on`, `auto` and
// `off` do where bubblewrap is missing. The real thing is proven in test/integration/sandbox.test.ts.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ConfigurationError } from '../../../src/core/errors';
import { bwrapArgs, checkSandbox, resetSandboxForTests, sandboxedCommand, setSandboxMode } from '../../../src/core/platform/sandbox';
import { HOME_NOTE, NETWORK_NOTE, WRITE_NOTE, explainSandboxFailures, sandboxNotesFor } from '../../../src/core/dotnet/sandbox-refusals';

/** The option pairs `--flag A B` as "flag A B" strings, in order. */
function binds(args: readonly string[], flag: string): string[] {
  const found: string[] = [];
  args.forEach((arg, index) => {
    if (arg === flag)
      found.push(flag === '--tmpfs' || flag === '--remount-ro' ? `${args[index + 1]}` : `${args[index + 1]} -> ${args[index + 2]}`);
  });
  return found;
}

describe('sandbox: the bwrap options', () => {
  let root = '';
  let home = '';
  const saved = new Map<string, string | undefined>();

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'ironbees-sandbox-unit-'));
    home = path.join(root, 'home');
    mkdirSync(path.join(home, '.ssh'), { recursive: true });
    writeFileSync(path.join(home, '.netrc'), 'machine example.com password x');
    for (const [name, value] of Object.entries({
      HOME: home,
      NUGET_PACKAGES: undefined,
      NUGET_HTTP_CACHE_PATH: undefined,
      DOTNET_CLI_HOME: undefined,
      XDG_RUNTIME_DIR: path.join(root, 'no-runtime-dir'),
    })) {
      saved.set(name, process.env[name]);
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  afterEach(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('a workspace under the home folder: root read-only, no network, home hidden and read-only, the caches and the workspace writable', () => {
    const workspace = path.join(home, 'src', 'app');
    mkdirSync(workspace, { recursive: true });
    const args = bwrapArgs({ workspaceRoot: workspace, network: false });
    assert.ok(args.includes('--unshare-net'));
    assert.ok(args.includes('--unshare-user'));
    assert.deepEqual(binds(args, '--ro-bind').slice(0, 1), ['/ -> /']);
    assert.deepEqual(binds(args, '--tmpfs'), [home]);
    assert.deepEqual(binds(args, '--remount-ro'), [home]);
    assert.deepEqual(binds(args, '--bind').slice(1), [
      `${path.join(home, '.nuget', 'packages')} -> ${path.join(home, '.nuget', 'packages')}`,
      `${path.join(home, '.local', 'share', 'NuGet')} -> ${path.join(home, '.local', 'share', 'NuGet')}`,
      `${path.join(home, '.dotnet')} -> ${path.join(home, '.dotnet')}`,
      `${workspace} -> ${workspace}`,
    ]);
    // The workspace is bound before the empty home turns read-only (its mount point is made in it).
    assert.ok(args.findIndex((arg, index) => arg === '--bind' && args[index + 1] === workspace) < args.indexOf('--remount-ro'));
    assert.deepEqual(args.slice(-2), ['--chdir', workspace]);
  });

  it('restore alone gets the network', () => {
    const args = bwrapArgs({ workspaceRoot: path.join(root, 'ws'), network: true });
    assert.equal(args.includes('--unshare-net'), false);
  });

  it('a workspace that is the home folder: home not hidden, but its secret folders and files masked', () => {
    const args = bwrapArgs({ workspaceRoot: home, network: false });
    assert.deepEqual(binds(args, '--tmpfs'), [path.join(home, '.ssh')]);
    assert.ok(binds(args, '--ro-bind').includes(`/dev/null -> ${path.join(home, '.netrc')}`));
    assert.equal(binds(args, '--remount-ro').length, 0);
  });

  it('NUGET_PACKAGES outside the home folder is writable too', () => {
    const packages = path.join(root, 'packages');
    mkdirSync(packages);
    process.env.NUGET_PACKAGES = packages;
    const args = bwrapArgs({ workspaceRoot: path.join(root, 'ws'), network: false });
    assert.ok(binds(args, '--bind').includes(`${packages} -> ${packages}`));
  });
});

describe('sandbox: the modes where bubblewrap is missing', () => {
  const env = { PATH: process.env.PATH, IRONBEES_BWRAP: '/nonexistent/bwrap' };

  beforeEach(() => resetSandboxForTests());
  afterEach(() => {
    setSandboxMode('auto');
    resetSandboxForTests();
  });

  it('on: a ConfigurationError (exit 2) naming bubblewrap', () => {
    setSandboxMode('on');
    assert.throws(
      () => checkSandbox(undefined, env),
      (error: unknown) => {
        assert.ok(error instanceof ConfigurationError);
        assert.match(error.message, /^--sandbox on: no sandbox is available: bubblewrap \(\/nonexistent\/bwrap\) is not installed/);
        return true;
      },
    );
  });

  it('auto: says so once, and runs the command as it is', () => {
    setSandboxMode('auto');
    const said: string[] = [];
    assert.equal(checkSandbox((message) => said.push(message), env).active, false);
    assert.equal(checkSandbox((message) => said.push(message), env).active, false);
    assert.equal(said.length, 1);
    assert.match(said[0] ?? '', /^Builds and tests run without a sandbox: bubblewrap \(\/nonexistent\/bwrap\) is not installed/);
    assert.deepEqual(sandboxedCommand('dotnet', ['build'], { workspaceRoot: '/ws', network: false, env }), {
      command: 'dotnet',
      args: ['build'],
    });
  });

  it('off: the command as it is, whatever is installed', () => {
    setSandboxMode('off');
    assert.deepEqual(sandboxedCommand('dotnet', ['test'], { workspaceRoot: '/ws', network: false }), { command: 'dotnet', args: ['test'] });
  });
});

describe('sandbox: refusals named in the result', () => {
  it('a refused connection, a read-only file system and a missing file under the home folder each get their note, first', () => {
    const failures = [
      { testName: 'A.Connects', message: 'System.Net.Sockets.SocketException : Connection refused', stackTrace: '' },
      { testName: 'A.Writes', message: "System.IO.IOException : Read-only file system : '/home/me/.bashrc'", stackTrace: '' },
      {
        testName: 'A.Reads',
        message: "System.IO.DirectoryNotFoundException : Could not find a part of the path '/home/me/.ssh/id_rsa'.",
        stackTrace: '',
      },
      { testName: 'A.Plain', message: 'Assert.Equal() Failure: Expected 4, Actual 5', stackTrace: '' },
    ];
    const notes = failures.map((failure) => sandboxNotesFor(failure.message, '/home/me'));
    assert.deepEqual(notes, [[NETWORK_NOTE], [WRITE_NOTE], [HOME_NOTE], []]);
    explainSandboxFailures(failures);
    assert.equal(failures[0]?.message, `${NETWORK_NOTE}\nSystem.Net.Sockets.SocketException : Connection refused`);
    assert.equal(failures[3]?.message, 'Assert.Equal() Failure: Expected 4, Actual 5');
  });
});
