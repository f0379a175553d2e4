// What `run` checks before anything runs (the build target: none, several, or the one to use), and
// what every command that ran builds does at the end (stop this process's build servers).

import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/app';
import type { CliDeps, RuntimeOptions } from '../../../src/cli/app';
import { createRuntime } from '../../../src/cli/wiring';
import type { Logger } from '../../../src/core/host';
import { FakeOrchestrator, fsHost, testIo, working } from './fakes';
import { makeState } from './fixtures';

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const KEY = { NO_COLOR: '1', ANTHROPIC_API_KEY: 'sk-test' };

async function write(root: string, rel: string, text = '<Project Sdk="Microsoft.NET.Sdk" />\n'): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await fs.writeFile(path.join(root, rel), text);
}

describe('cli runtime: the build target up front, the build servers at the end', function () {
  this.timeout(60_000);
  let workspace: string;
  beforeEach(async () => (workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-cli-runtime-'))));
  afterEach(async () => fs.rm(workspace, { recursive: true, force: true }));

  it('a folder with no .NET project: exit 2, a clear message, and nothing written', async () => {
    await write(workspace, 'README.md', '# not .NET\n');
    const io = testIo(null, workspace);
    io.env = KEY;
    assert.equal(await runCli(['run', 'Fix it', '--yes'], io), 2);
    assert.match(io.err(), /No \.NET solution or project found in /);
    assert.equal(existsSync(path.join(workspace, '.ironbees')), false);
  });

  it('several projects and no --target: exit 2 naming them and how to choose; nothing written', async () => {
    await write(workspace, 'src/A/A.csproj');
    await write(workspace, 'src/B/B.csproj');
    const io = testIo(null, workspace);
    io.env = KEY;
    assert.equal(await runCli(['run', 'Fix it', '--yes'], io), 2);
    assert.match(io.err(), /src\/A\/A\.csproj, src\/B\/B\.csproj/);
    assert.match(io.err(), /--target src\/A\/A\.csproj/);
    assert.equal(existsSync(path.join(workspace, '.ironbees')), false);
  });

  it('a --target that is not a solution or project: exit 2', async () => {
    await write(workspace, 'src/A/A.csproj');
    const io = testIo(null, workspace);
    io.env = KEY;
    assert.equal(await runCli(['run', 'Fix it', '--target', 'src/A'], io), 2);
    assert.match(io.err(), /not a solution .* or project/);
  });

  it('finds the one project, or takes the named one, and pins the run to it', async () => {
    await write(workspace, 'src/A/A.csproj');
    const found = await createRuntime({ workspaceRoot: workspace, trusted: false, demo: true, env: {}, logger: quiet, target: null });
    assert.equal(found.target, 'src/A/A.csproj');
    await write(workspace, 'src/B/B.csproj');
    const named = await createRuntime({
      workspaceRoot: workspace,
      trusted: false,
      demo: true,
      env: {},
      logger: quiet,
      target: 'src/B/B.csproj',
    });
    assert.equal(named.target, 'src/B/B.csproj');
    // A resume keeps the target its run started with: no search, so no error here either.
    const resumed = await createRuntime({ workspaceRoot: workspace, trusted: false, demo: true, env: {}, logger: quiet });
    assert.equal(resumed.target, undefined);
    await found.dispose?.();
  });

  describe('disposing the runtime', () => {
    let disposed: number;
    let calls: RuntimeOptions[];
    function deps(orchestrator: FakeOrchestrator, target?: string): Partial<CliDeps> {
      return {
        createRuntime: async (options) => {
          calls.push(options);
          return {
            host: fsHost(options.workspaceRoot),
            orchestrator,
            ...(target ? { target } : {}),
            dispose: async () => void (disposed += 1),
          };
        },
        createHost: (root) => fsHost(root),
      };
    }
    beforeEach(() => {
      disposed = 0;
      calls = [];
    });

    it('after a run that ends, and the run builds the target found up front', async () => {
      const orchestrator = new FakeOrchestrator(async function* () {
        yield makeState({ currentNode: 'INIT' });
        yield makeState({ currentNode: 'SUCCESS' });
      });
      const io = testIo(null, workspace);
      assert.equal(await runCli(['run', 'Fix it', '--yes'], io, deps(orchestrator, 'Found.sln')), 0);
      assert.equal(disposed, 1);
      assert.equal(calls[0]?.target, null, 'asked to find the target');
      assert.equal(orchestrator.context?.target, 'Found.sln');
    });

    it('after Ctrl-C (the run kept for resume) and after a failure', async () => {
      const interrupted = new FakeOrchestrator(async function* (_run, signal) {
        yield makeState({ currentNode: 'INIT' });
        await working(signal);
      });
      const io = testIo(null, workspace);
      const done = runCli(['run', 'Fix it', '--yes'], io, deps(interrupted));
      await new Promise((resolve) => setTimeout(resolve, 20));
      io.interrupt();
      assert.equal(await done, 130);
      assert.equal(disposed, 1);

      const failing = new FakeOrchestrator(async function* () {
        yield makeState({ currentNode: 'INIT' });
        throw new Error('boom');
      });
      assert.equal(await runCli(['run', 'Fix it', '--yes'], testIo(null, workspace), deps(failing)), 1);
      assert.equal(disposed, 2);
    });

    it('a dispose that fails is a warning, not another exit code', async () => {
      const orchestrator = new FakeOrchestrator(async function* () {
        yield makeState({ currentNode: 'SUCCESS' });
      });
      const io = testIo(null, workspace);
      const failingDispose: Partial<CliDeps> = {
        createRuntime: async (options) => ({
          host: fsHost(options.workspaceRoot),
          orchestrator,
          dispose: async () => Promise.reject(new Error('dotnet went away')),
        }),
      };
      assert.equal(await runCli(['run', 'Fix it', '--yes'], io, failingDispose), 0);
      assert.match(io.err(), /Could not stop the build servers: dotnet went away/);
    });
  });
});
