import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { cachedSdkVersion } from '../../../src/core/dotnet/sdk-cache';
import { resetVstestConsoleForTests, vstestConsoleFor } from '../../../src/core/dotnet/vstest-console';

describe('vstest.console started directly (vstest-console.ts)', () => {
  let base: string;
  let dotnetRoot: string;
  let workspace: string;
  let cacheDir: string;
  let env: NodeJS.ProcessEnv;

  const sdk = (version: string): string => {
    const dll = path.join(dotnetRoot, 'sdk', version, 'vstest.console.dll');
    mkdirSync(path.dirname(dll), { recursive: true });
    writeFileSync(dll, 'MZ');
    return dll;
  };

  beforeEach(() => {
    resetVstestConsoleForTests();
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'ironbees-vstest-console-')));
    dotnetRoot = path.join(base, 'dotnet');
    workspace = path.join(base, 'ws');
    cacheDir = path.join(base, 'cache');
    mkdirSync(workspace, { recursive: true });
    mkdirSync(dotnetRoot, { recursive: true });
    writeFileSync(path.join(dotnetRoot, 'dotnet'), '#!/bin/sh\n', { mode: 0o755 });
    env = { PATH: dotnetRoot };
  });
  afterEach(() => {
    resetVstestConsoleForTests();
    rmSync(base, { recursive: true, force: true });
  });

  if (process.platform === 'win32') return;

  it('the only SDK installed, when no global.json can choose another, with what the CLI sets for the test host', async () => {
    const dll = sdk('9.0.100');
    const found = await vstestConsoleFor(workspace, { env, cacheDir });
    assert.equal(found?.dll, dll);
    assert.equal(found?.env.VSTEST_DOTNET_ROOT_PATH, dotnetRoot);
    assert.ok(['X64', 'ARM64', 'X86', 'ARM'].includes(found?.env.VSTEST_DOTNET_ROOT_ARCHITECTURE ?? ''));
  });

  it('none when several SDKs are installed or a global.json may pin one, and nothing is cached', async () => {
    sdk('9.0.100');
    sdk('10.0.100');
    assert.equal(await vstestConsoleFor(workspace, { env, cacheDir }), null);
    resetVstestConsoleForTests();
    rmSync(path.join(dotnetRoot, 'sdk', '10.0.100'), { recursive: true });
    writeFileSync(path.join(workspace, 'global.json'), '{"sdk":{"version":"9.0.100"}}');
    assert.equal(await vstestConsoleFor(workspace, { env, cacheDir }), null);
  });

  it('the SDK the workspace check cached, among several; none when switched off or the SDK has no console', async () => {
    sdk('9.0.100');
    const chosen = sdk('10.0.100');
    writeFileSync(path.join(workspace, 'global.json'), '{"sdk":{"version":"10.0.100"}}');
    assert.equal(await cachedSdkVersion(workspace, async () => '10.0.100', { env, cacheDir }), '10.0.100');
    assert.equal((await vstestConsoleFor(workspace, { env, cacheDir }))?.dll, chosen);
    resetVstestConsoleForTests();
    assert.equal(await vstestConsoleFor(workspace, { env: { ...env, IRONBEES_VSTEST_CONSOLE: '0' }, cacheDir }), null);
    rmSync(chosen);
    resetVstestConsoleForTests();
    assert.equal(await vstestConsoleFor(workspace, { env, cacheDir }), null);
  });
});
