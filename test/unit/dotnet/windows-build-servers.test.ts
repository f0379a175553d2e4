// On Windows no dotnet command starts build servers: a server is not in the tree `taskkill /T` stops,
// so after a time limit or a Cancel it would live on holding obj/ locked. Elsewhere they speed builds up.

import assert from 'node:assert/strict';
import { buildEnv, buildServersEnabled, testEnv } from '../../../src/core/dotnet/dotnet-cli';

describe('build servers per platform', () => {
  const saved = process.env.IRONBEES_DOTNET_BUILD_SERVERS;
  afterEach(() => {
    if (saved === undefined) delete process.env.IRONBEES_DOTNET_BUILD_SERVERS;
    else process.env.IRONBEES_DOTNET_BUILD_SERVERS = saved;
  });

  it('Windows: builds and tests run without servers, whatever the setting', () => {
    process.env.IRONBEES_DOTNET_BUILD_SERVERS = '1';
    assert.equal(buildServersEnabled('win32'), false);
    for (const env of [buildEnv('win32'), testEnv('win32')]) {
      assert.equal(env.MSBUILDDISABLENODEREUSE, '1');
      assert.equal(env.DOTNET_CLI_USE_MSBUILD_SERVER, '0');
      assert.equal(env.UseSharedCompilation, 'false');
      assert.equal('MSBUILDNODEHANDSHAKESALT' in env, false);
    }
  });

  it('Linux and macOS: servers with a salt of their own, unless IRONBEES_DOTNET_BUILD_SERVERS=0', () => {
    delete process.env.IRONBEES_DOTNET_BUILD_SERVERS;
    for (const platform of ['linux', 'darwin'] as const) {
      assert.equal(buildServersEnabled(platform), true);
      assert.equal(buildEnv(platform).DOTNET_CLI_USE_MSBUILD_SERVER, '1');
      assert.match(buildEnv(platform).MSBUILDNODEHANDSHAKESALT ?? '', /^ironbees-\d+-[0-9a-f]+$/);
    }
    process.env.IRONBEES_DOTNET_BUILD_SERVERS = '0';
    assert.equal(buildEnv('linux').DOTNET_CLI_USE_MSBUILD_SERVER, '0');
  });
});
