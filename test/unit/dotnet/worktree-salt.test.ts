// Each workspace of one process (a git worktree is one) gets an MSBuild handshake salt of its own, so
// two worktrees built side by side never share a server or node; the shut-down at the end of a run
// stops only its workspace's servers.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { buildEnv, handshakeSalt, shutdownBuildServers, testEnv } from '../../../src/core/dotnet/dotnet-cli';
import type { Host, RunOptions } from '../../../src/core/host';
import { createMemoryHost } from '../../support/memory-host';

describe('build servers per worktree', () => {
  const saved = process.env.IRONBEES_DOTNET_BUILD_SERVERS;
  before(() => delete process.env.IRONBEES_DOTNET_BUILD_SERVERS);
  after(() => {
    if (saved !== undefined) process.env.IRONBEES_DOTNET_BUILD_SERVERS = saved;
  });

  it('two workspaces of one process get two salts; one workspace always the same one', () => {
    const a = path.resolve('/repo/.ironbees/worktrees/run-a');
    const b = path.resolve('/repo/.ironbees/worktrees/run-b');
    const saltA = buildEnv('linux', a).MSBUILDNODEHANDSHAKESALT;
    const saltB = buildEnv('linux', b).MSBUILDNODEHANDSHAKESALT;
    assert.match(saltA ?? '', /^ironbees-\d+-[0-9a-f]{8}-[0-9a-f]{12}$/);
    assert.notEqual(saltA, saltB);
    assert.equal(testEnv('linux', a).MSBUILDNODEHANDSHAKESALT, saltA, 'tests reach the servers their build started');
    assert.equal(buildEnv('linux', `${a}${path.sep}`).MSBUILDNODEHANDSHAKESALT, saltA, 'the same folder written another way');
    assert.ok(saltA?.startsWith(`${handshakeSalt()}-`), "the process's own salt stays the prefix");
  });

  it("shuts down the servers of the host's workspace only", async () => {
    const root = path.resolve('/repo/.ironbees/worktrees/run-a');
    buildEnv('linux', root);
    const calls: Array<{ args: readonly string[]; options: RunOptions }> = [];
    const host: Host = {
      ...createMemoryHost({}, root),
      process: {
        run: async (_command, args, options) => {
          calls.push({ args, options });
          return { exitCode: 0, stdout: '', stderr: '', durationMs: 1, timedOut: false, cancelled: false };
        },
      },
    };
    await shutdownBuildServers(host);
    assert.deepEqual(
      calls.map((c) => [c.args.join(' '), c.options.cwd, c.options.env?.MSBUILDNODEHANDSHAKESALT]),
      [['build-server shutdown --msbuild', root, handshakeSalt(root)]],
    );
  });
});
