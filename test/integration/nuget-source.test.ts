// IRONBEES_NUGET_SOURCE adds a feed to the restores Ironbees runs: a package that is only in a local
// folder feed restores with it and is not found without it. Real dotnet (pack and restore), no network:
// the workspace's nuget.config clears every other source and the package cache is a fresh folder.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runBuild } from '../../src/core/dotnet/build';
import { shutdownBuildServers } from '../../src/core/dotnet/dotnet-cli';
import { createNodeHost } from '../../src/host/node/index';
import { removeDir } from '../support/cli-harness';

const quietLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const PACKAGE = 'Ironbees.FeedProbe';

describe('IRONBEES_NUGET_SOURCE adds a package feed to every restore', function () {
  this.timeout(240_000);
  let root: string;
  let workspace: string;
  let feed: string;
  const saved = { source: process.env.IRONBEES_NUGET_SOURCE, packages: process.env.NUGET_PACKAGES };

  before(() => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'ironbees-nuget-source-')));
    feed = path.join(root, 'feed');
    const probe = path.join(root, 'probe');
    mkdirSync(probe);
    writeFileSync(
      path.join(probe, `${PACKAGE}.csproj`),
      `<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework><PackageId>${PACKAGE}</PackageId><Version>1.0.0</Version></PropertyGroup></Project>\n`,
    );
    writeFileSync(
      path.join(probe, 'Probe.cs'),
      'namespace Ironbees.FeedProbe;\n\npublic static class Probe\n{\n    public static int Answer => 42;\n}\n',
    );
    const packed = spawnSync('dotnet', ['pack', probe, '-o', feed, '-nologo'], {
      encoding: 'utf8',
      env: { ...process.env, NUGET_PACKAGES: path.join(root, 'pack-cache') },
    });
    assert.equal(packed.status, 0, packed.stdout + packed.stderr);
    assert.deepEqual(readdirSync(feed), [`${PACKAGE}.1.0.0.nupkg`]);

    workspace = path.join(root, 'app');
    mkdirSync(workspace);
    writeFileSync(
      path.join(workspace, 'nuget.config'),
      '<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <packageSources>\n    <clear />\n  </packageSources>\n</configuration>\n',
    );
    writeFileSync(
      path.join(workspace, 'App.csproj'),
      `<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup><ItemGroup><PackageReference Include="${PACKAGE}" Version="1.0.0" /></ItemGroup></Project>\n`,
    );
    writeFileSync(
      path.join(workspace, 'App.cs'),
      'public static class App\n{\n    public static int Value => Ironbees.FeedProbe.Probe.Answer;\n}\n',
    );
  });

  beforeEach(() => {
    process.env.NUGET_PACKAGES = mkdtempSync(path.join(root, 'cache-'));
  });

  after(async () => {
    for (const [name, value] of [
      ['IRONBEES_NUGET_SOURCE', saved.source],
      ['NUGET_PACKAGES', saved.packages],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await shutdownBuildServers(createNodeHost(workspace, { logger: quietLogger }));
    removeDir(root);
  });

  it('without it, the package cannot be resolved (NU1100: the workspace lists no feed)', async () => {
    delete process.env.IRONBEES_NUGET_SOURCE;
    const build = await runBuild({
      host: createNodeHost(workspace, { logger: quietLogger }),
      projects: [path.join(workspace, 'App.csproj')],
      restore: true,
      timeoutMs: 180_000,
    });
    assert.equal(build.success, false);
    assert.deepEqual(
      build.errors.map((error) => error.code),
      ['NU1100'],
    );
    assert.ok(build.errors[0].message.includes(`Unable to resolve '${PACKAGE} (>= 1.0.0)'`), build.errors[0].message);
  });

  it('with it, the package restores from the local feed and the project builds', async () => {
    process.env.IRONBEES_NUGET_SOURCE = feed;
    const build = await runBuild({
      host: createNodeHost(workspace, { logger: quietLogger }),
      projects: [path.join(workspace, 'App.csproj')],
      restore: true,
      timeoutMs: 180_000,
    });
    assert.deepEqual(build.errors, []);
    assert.equal(build.success, true);
    assert.deepEqual(readdirSync(path.join(process.env.NUGET_PACKAGES as string)), [PACKAGE.toLowerCase()]);
  });
});
