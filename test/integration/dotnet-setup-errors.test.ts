// Setups that real .NET teams have and that must end in a clear message, not "exited with code N":
// a global.json pinning an SDK that is not installed (the CLI and VS Code share checkDotnetSdk), and a
// nuget.config whose private feeds cannot give a package. Real dotnet, real restore; no network beyond
// 127.0.0.1 (the unreachable feed is a closed local port).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ConfigurationError } from '../../src/core/errors';
import { runBuild } from '../../src/core/dotnet/build';
import { shutdownBuildServers } from '../../src/core/dotnet/dotnet-cli';
import { checkDotnetSdk } from '../../src/core/dotnet/sdk-check';
import { NodeProcessRunner } from '../../src/host/node/process-runner';
import { createNodeHost } from '../../src/host/node/index';
import { copyFixture, ensureCliBuilt, removeDir, runCli } from '../support/cli-harness';

const quietLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const PINNED = '8.0.100';

function installedSdks(): string {
  const listed = spawnSync('dotnet', ['--list-sdks'], { encoding: 'utf8' }).stdout;
  return [...listed.matchAll(/^(\S+) \[/gm)].map((match) => match[1]).join(', ');
}

function pinMessage(globalJson: string): string {
  return (
    `${globalJson} pins .NET SDK ${PINNED}, which is not installed (installed SDKs: ${installedSdks()}). ` +
    `Install SDK ${PINNED}, or change "sdk.version" (or "rollForward") in that global.json to match an installed SDK.`
  );
}

describe('a global.json that pins an SDK which is not installed', function () {
  this.timeout(120_000);
  let workspace: string | null = null;
  before(function () {
    // The check is about an absent SDK: skip where 8.0.100 happens to be installed.
    if (installedSdks().split(', ').includes(PINNED)) this.skip();
    ensureCliBuilt();
  });
  afterEach(() => {
    if (workspace) removeDir(workspace);
    workspace = null;
  });

  it('checkDotnetSdk (the CLI and the VS Code runtime both call it) names the pinned and the installed versions', async () => {
    workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'ironbees-sdk-pin-')));
    writeFileSync(path.join(workspace, 'global.json'), JSON.stringify({ sdk: { version: PINNED, rollForward: 'disable' } }));
    await assert.rejects(checkDotnetSdk(new NodeProcessRunner(), workspace), (error: unknown) => {
      assert.ok(error instanceof ConfigurationError);
      assert.equal(error.message, pinMessage(path.join(workspace as string, 'global.json')));
      return true;
    });
  });

  it('ironbees run stops at the start with exit 2, the message, and nothing written', async () => {
    workspace = copyFixture('broken');
    writeFileSync(path.join(workspace, 'global.json'), JSON.stringify({ sdk: { version: PINNED } }));
    const result = await runCli(['run', 'Fix it', '--workspace', workspace, '--yes'], { ANTHROPIC_API_KEY: 'sk-test' });
    assert.equal(result.code, 2, result.stderr);
    assert.ok(
      result.stderr.includes(pinMessage(path.join(realpathSync(workspace), 'global.json'))) ||
        result.stderr.includes(pinMessage(path.join(workspace, 'global.json'))),
      result.stderr,
    );
    assert.equal(existsSync(path.join(workspace, '.ironbees')), false);
  });
});

describe('a restore that fails on nuget.config feeds names the feed and the package', function () {
  this.timeout(180_000);
  let workspace: string;
  before(() => {
    workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'ironbees-feeds-')));
    mkdirSync(path.join(workspace, 'feed'));
    writeFileSync(path.join(workspace, 'A.cs'), 'class A {}\n');
    writeFileSync(
      path.join(workspace, 'App.csproj'),
      '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>' +
        '<ItemGroup><PackageReference Include="Contoso.Internal.Logging" Version="1.2.3" /></ItemGroup></Project>\n',
    );
  });
  after(async () => {
    await shutdownBuildServers(createNodeHost(workspace, { logger: quietLogger }));
    removeDir(workspace);
  });

  function writeFeeds(extra: string): void {
    writeFileSync(
      path.join(workspace, 'nuget.config'),
      `<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <packageSources>\n    <clear />\n    <add key="contoso-internal" value="${path.join(workspace, 'feed')}" />\n${extra}  </packageSources>\n</configuration>\n`,
    );
  }

  it('NU1101: the package is on no feed; the feed is named with where it is', async () => {
    writeFeeds('');
    const host = createNodeHost(workspace, { logger: quietLogger });
    const build = await runBuild({ host, projects: [path.join(workspace, 'App.csproj')], restore: true, timeoutMs: 120_000 });
    assert.equal(build.success, false);
    assert.deepEqual(
      build.errors.map((error) => [error.code, error.filePath, error.message]),
      [
        [
          'NU1101',
          'App.csproj',
          `Unable to find package Contoso.Internal.Logging. No packages exist with this id in source(s): contoso-internal (feeds: contoso-internal = ${path.join(workspace, 'feed')})`,
        ],
      ],
    );
  });

  it('NU1301: an unreachable feed is named by its nuget.config key and address, with the packages the project restores', async () => {
    writeFeeds('    <add key="contoso-mirror" value="https://127.0.0.1:9/v3/index.json" />\n');
    const host = createNodeHost(workspace, { logger: quietLogger });
    const build = await runBuild({ host, projects: [path.join(workspace, 'App.csproj')], restore: true, timeoutMs: 120_000 });
    assert.equal(build.success, false);
    assert.deepEqual(
      build.errors.map((error) => [error.code, error.filePath, error.message]),
      [
        [
          'NU1301',
          'App.csproj',
          'Restore of App.csproj could not use the package feed "contoso-mirror" (https://127.0.0.1:9/v3/index.json): ' +
            'Unable to load the service index for source https://127.0.0.1:9/v3/index.json: Connection refused (127.0.0.1:9). ' +
            'Packages App.csproj restores: Contoso.Internal.Logging 1.2.3.',
        ],
      ],
    );
  });
});
