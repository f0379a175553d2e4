import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ConfigurationError } from '../../../src/core/errors';
import { cachedSdkVersion } from '../../../src/core/dotnet/sdk-cache';

describe('the dotnet --version cache', () => {
  let root: string;
  let env: Record<string, string>;
  let calls: number;
  const options = () => ({ cacheDir: path.join(root, 'cache'), env });
  const check = (version: string) => async () => {
    calls += 1;
    return version;
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'ironbees-sdk-cache-'));
    // A dotnet install of its own: the executable and its sdk/ folder, first on PATH.
    mkdirSync(path.join(root, 'dotnet', 'sdk', '10.0.100'), { recursive: true });
    writeFileSync(path.join(root, 'dotnet', 'dotnet'), '#!/bin/sh\n', { mode: 0o755 });
    mkdirSync(path.join(root, 'ws'));
    env = { PATH: path.join(root, 'dotnet'), IRONBEES_SDK_CACHE: '1' };
    calls = 0;
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('answers from the cache while the install and global.json are unchanged', async () => {
    const ws = path.join(root, 'ws');
    assert.equal(await cachedSdkVersion(ws, check('10.0.100'), options()), '10.0.100');
    assert.equal(await cachedSdkVersion(ws, check('99.0.0'), options()), '10.0.100');
    assert.equal(calls, 1);
  });

  it('asks dotnet again when a global.json appears or changes, or an SDK is installed', async () => {
    const ws = path.join(root, 'ws');
    await cachedSdkVersion(ws, check('10.0.100'), options());
    writeFileSync(path.join(root, 'global.json'), '{"sdk":{"version":"8.0.100"}}');
    assert.equal(await cachedSdkVersion(ws, check('8.0.100'), options()), '8.0.100', 'a global.json above the workspace counts');
    writeFileSync(path.join(root, 'global.json'), '{"sdk":{"version":"9.0.100"}}');
    assert.equal(await cachedSdkVersion(ws, check('9.0.100'), options()), '9.0.100');
    rmSync(path.join(root, 'global.json'));
    mkdirSync(path.join(root, 'dotnet', 'sdk', '10.0.200'));
    utimesSync(path.join(root, 'dotnet', 'sdk'), new Date(), new Date(Date.now() + 5_000));
    assert.equal(await cachedSdkVersion(ws, check('10.0.200'), options()), '10.0.200');
    assert.equal(calls, 4);
  });

  it('never keeps a failed check, and is off without dotnet on PATH or with IRONBEES_SDK_CACHE=0', async () => {
    const ws = path.join(root, 'ws');
    const failing = async (): Promise<string> => {
      calls += 1;
      throw new ConfigurationError('global.json pins .NET SDK 7.0.100, which is not installed');
    };
    await assert.rejects(cachedSdkVersion(ws, failing, options()), /7\.0\.100/);
    await assert.rejects(cachedSdkVersion(ws, failing, options()), /7\.0\.100/);
    env = { PATH: path.join(root, 'nowhere'), IRONBEES_SDK_CACHE: '1' };
    await cachedSdkVersion(ws, check('1.0.0'), options());
    await cachedSdkVersion(ws, check('1.0.0'), options());
    env = { PATH: path.join(root, 'dotnet'), IRONBEES_SDK_CACHE: '0' };
    await cachedSdkVersion(ws, check('1.0.0'), options());
    await cachedSdkVersion(ws, check('1.0.0'), options());
    assert.equal(calls, 6);
  });
});

describe('the dotnet --version cache across workspaces', () => {
  it('shares one answer between workspaces with the same pin, unless the pin lists SDK paths (relative to it)', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'ironbees-sdk-cache-'));
    try {
      mkdirSync(path.join(root, 'dotnet', 'sdk'), { recursive: true });
      writeFileSync(path.join(root, 'dotnet', 'dotnet'), '#!/bin/sh\n', { mode: 0o755 });
      const options = { cacheDir: path.join(root, 'cache'), env: { PATH: path.join(root, 'dotnet'), IRONBEES_SDK_CACHE: '1' } };
      for (const name of ['a', 'b', 'c', 'd']) mkdirSync(path.join(root, name));
      writeFileSync(path.join(root, 'a', 'global.json'), '{"sdk":{"version":"10.0.100"}}');
      writeFileSync(path.join(root, 'b', 'global.json'), '{"sdk":{"version":"10.0.100"}}');
      writeFileSync(path.join(root, 'c', 'global.json'), '{"sdk":{"paths":[".dotnet"]}}');
      writeFileSync(path.join(root, 'd', 'global.json'), '{"sdk":{"paths":[".dotnet"]}}');
      let calls = 0;
      const check = async () => `v${++calls}`;
      const answers = [];
      for (const name of ['a', 'b', 'c', 'd']) answers.push(await cachedSdkVersion(path.join(root, name), check, options));
      assert.deepEqual(answers, ['v1', 'v1', 'v2', 'v3']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
