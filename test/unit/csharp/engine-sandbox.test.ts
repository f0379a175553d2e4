// The C# engine starts its own process (its design-time builds run the workspace's MSBuild targets):
// it goes through the sandbox like every dotnet build. A stand-in bwrap records how it was called.

import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { resolveCommand } from '../../../src/core/platform/command-path';
import { EngineProcess } from '../../../src/core/csharp/engine/engine-process';
import { resetSandboxForTests, setSandboxMode } from '../../../src/core/platform/sandbox';

describe('the C# engine runs in the sandbox', () => {
  let root = '';
  let saved: string | undefined;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'ironbees-engine-sandbox-'));
    saved = process.env.IRONBEES_BWRAP;
  });

  afterEach(() => {
    if (saved === undefined) delete process.env.IRONBEES_BWRAP;
    else process.env.IRONBEES_BWRAP = saved;
    setSandboxMode('auto');
    resetSandboxForTests();
    rmSync(root, { recursive: true, force: true });
  });

  it('with the sandbox on, the engine is started by bwrap: no network, a session of its own, then dotnet by its absolute path on PATH', async function () {
    if (process.platform !== 'linux') this.skip();
    const calls = path.join(root, 'calls.txt');
    const bwrap = path.join(root, 'bwrap');
    // Answers the probe (its last argument is `true`) and records every call, one line each.
    writeFileSync(bwrap, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${calls}'\nexit 0\n`);
    chmodSync(bwrap, 0o755);
    process.env.IRONBEES_BWRAP = bwrap;
    resetSandboxForTests();
    setSandboxMode('on');
    const enginePath = path.join(root, 'engine', 'Ironbees.Roslyn.dll');
    mkdirSync(path.join(root, 'ws'));
    const engine = new EngineProcess({ enginePath, cwd: path.join(root, 'ws') });
    await engine.request('ping', {}, 10_000).catch(() => undefined);
    await engine.dispose(100);
    const lines = readFileSync(calls, 'utf8').trim().split('\n');
    const started = lines.find((line) => line.endsWith(`-- ${resolveCommand('dotnet')} ${enginePath}`));
    assert.ok(started, lines.join('\n'));
    for (const option of [
      '--unshare-user',
      '--unshare-net',
      '--new-session',
      '--ro-bind / /',
      `--bind ${path.join(root, 'ws')} ${path.join(root, 'ws')}`,
    ]) {
      assert.ok(started.includes(option), `${option} missing from: ${started}`);
    }
  });
});
