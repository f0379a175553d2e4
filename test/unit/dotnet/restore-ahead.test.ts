// A phase worktree's restore ahead is tracked (a C# engine started meanwhile waits for it), and the
// engine is asked to load only once that restore has finished, and the target is built once after it;
// neither when the restore could not run.

import assert from 'node:assert/strict';
import { restoreRunning, restoresSettled } from '../../../src/core/dotnet/build-tracker';
import { prepareWorktree } from '../../../src/core/dotnet/restore-ahead';
import type { Host, RunResult } from '../../../src/core/host';
import { createMemoryHost } from '../../support/memory-host';

interface Held {
  host: Host;
  commands: string[][];
  warmUps: number[];
  finish: () => void;
}

const ONE_PROJECT = { 'App.sln': '', 'src/App/App.csproj': '<Project />' };

/** `fail`: true, dotnet cannot start; a number, every command exits with it. */
function heldHost(workspaceRoot: string, fail: boolean | number = false, files: Record<string, string> = ONE_PROJECT): Held {
  const base = createMemoryHost(files, workspaceRoot);
  const commands: string[][] = [];
  const warmUps: number[] = [];
  let finish = (): void => undefined;
  const done = new Promise<RunResult>((resolve) => {
    finish = () => resolve({ exitCode: typeof fail === 'number' ? fail : 0, stdout: '', stderr: '', timedOut: false } as RunResult);
  });
  const host: Host = {
    ...base,
    process: {
      run: async (command, args) => {
        commands.push([command, ...args]);
        if (fail === true) throw new Error('dotnet was not found');
        return done;
      },
    },
    codeCheck: {
      check: () => Promise.reject(new Error('not asked')),
      warmUp: () => warmUps.push(commands.length),
    },
  };
  return { host, commands, warmUps, finish: () => finish() };
}

describe('prepareWorktree', () => {
  it('tracks the restore and starts the engine only after it', async () => {
    const held = heldHost('/memory-phase-a');
    const prepared = prepareWorktree(held.host, undefined, 60_000);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      held.commands.map((c) => c.slice(0, 2)),
      [['dotnet', 'restore']],
    );
    assert.equal(restoreRunning('/memory-phase-a'), true);
    assert.deepEqual(held.warmUps, []);
    let settled = false;
    const waiting = restoresSettled('/memory-phase-a').then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, 'an engine start would not wait for the restore');
    held.finish();
    await prepared;
    await waiting;
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(restoreRunning('/memory-phase-a'), false);
    assert.deepEqual(held.warmUps, [1]);
    // Then the whole target is built once, after the restore, with the workspace's own build servers.
    assert.deepEqual(
      held.commands.map((c) => c.slice(0, 3)),
      [
        ['dotnet', 'restore', '/memory-phase-a/App.sln'],
        ['dotnet', 'build', '/memory-phase-a/App.sln'],
      ],
    );
  });

  it("builds only what a change of the plan's files would build", async () => {
    const held = heldHost('/memory-phase-d', false, {
      'App.slnx':
        '<Solution><Project Path="src/Lib/Lib.csproj" /><Project Path="tests/Lib.Tests/Lib.Tests.csproj" /><Project Path="src/Other/Other.csproj" /></Solution>',
      'src/Lib/Lib.csproj': '<Project Sdk="Microsoft.NET.Sdk" />',
      'src/Other/Other.csproj': '<Project Sdk="Microsoft.NET.Sdk" />',
      'tests/Lib.Tests/Lib.Tests.csproj':
        '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><ProjectReference Include="../../src/Lib/Lib.csproj" /></ItemGroup></Project>',
    });
    const prepared = prepareWorktree(held.host, undefined, 60_000, ['src/Lib/Extra.cs']);
    held.finish();
    await prepared;
    assert.deepEqual(
      held.commands.map((c) => c.slice(0, 3)),
      [
        ['dotnet', 'restore', '/memory-phase-d/App.slnx'],
        // Lib.Tests builds Lib (its reference); Other is left alone.
        ['dotnet', 'build', '/memory-phase-d/tests/Lib.Tests/Lib.Tests.csproj'],
      ],
    );
  });

  it('builds nothing ahead with IRONBEES_PHASE_BUILD_AHEAD=0', async () => {
    process.env.IRONBEES_PHASE_BUILD_AHEAD = '0';
    try {
      const held = heldHost('/memory-phase-c');
      const prepared = prepareWorktree(held.host, undefined, 60_000);
      held.finish();
      await prepared;
      assert.deepEqual(
        held.commands.map((c) => c.slice(0, 2)),
        [['dotnet', 'restore']],
      );
      assert.deepEqual(held.warmUps, [1]);
    } finally {
      delete process.env.IRONBEES_PHASE_BUILD_AHEAD;
    }
  });

  it('asks for no engine and builds nothing when the restore fails', async () => {
    const held = heldHost('/memory-phase-e', 1);
    const prepared = prepareWorktree(held.host, undefined, 60_000);
    held.finish();
    await prepared;
    assert.deepEqual(
      held.commands.map((c) => c.slice(0, 2)),
      [['dotnet', 'restore']],
    );
    assert.deepEqual(held.warmUps, []);
  });

  it('asks for no engine and builds nothing when the restore could not run', async () => {
    const held = heldHost('/memory-phase-b', true);
    await prepareWorktree(held.host, undefined, 60_000);
    assert.deepEqual(
      held.commands.map((c) => c.slice(0, 2)),
      [['dotnet', 'restore']],
    );
    assert.deepEqual(held.warmUps, []);
    assert.equal(restoreRunning('/memory-phase-b'), false);
  });
});
