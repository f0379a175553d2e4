// A baseline whose restore cannot reach its feed stops the run at INIT: FAILED, exit 2 (configuration),
// a message naming the feed, the package and what to try, and not one model call. Real CLI, real dotnet;
// the feed is a closed port on 127.0.0.1, the model a local fake that counts its requests.

import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { RESTORE_ADVICE } from '../../src/core/dotnet/restore-stop';
import { startFakeAnthropic } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { ensureCliBuilt, removeDir, runCli } from '../support/cli-harness';

const FEED = 'https://127.0.0.1:9/v3/index.json';

describe('a baseline restore that cannot reach its feed stops the run at INIT', function () {
  this.timeout(240_000);
  let workspace: string;
  let fake: FakeAnthropic;

  before(async () => {
    ensureCliBuilt();
    fake = await startFakeAnthropic();
    workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'ironbees-restore-stop-')));
    writeFileSync(
      path.join(workspace, 'nuget.config'),
      `<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <packageSources>\n    <clear />\n    <add key="contoso-mirror" value="${FEED}" />\n  </packageSources>\n</configuration>\n`,
    );
    writeFileSync(
      path.join(workspace, 'App.csproj'),
      '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>' +
        '<ItemGroup><PackageReference Include="Contoso.Internal.Logging" Version="1.2.3" /></ItemGroup></Project>\n',
    );
    writeFileSync(path.join(workspace, 'A.cs'), 'class A {}\n');
  });
  after(async () => {
    await fake.close();
    removeDir(workspace);
  });

  it('FAILED with exit 2, the feed, the package and what to try; no model call', async () => {
    const result = await runCli(['run', 'Add logging', '--workspace', workspace, '--yes', '--json'], {
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: fake.url,
      IRONBEES_NUGET_SOURCE: undefined,
      IRONBEES_DOTNET_BUILD_SERVERS: '0',
    });
    const expected = [
      'The baseline restore could not get the packages, so the run stopped before planning (no model was called):',
      `- NU1301 App.csproj: Restore of App.csproj could not use the package feed "contoso-mirror" (${FEED}): ` +
        `Unable to load the service index for source ${FEED}: Connection refused (127.0.0.1:9). Packages App.csproj restores: Contoso.Internal.Logging 1.2.3.`,
      RESTORE_ADVICE,
    ].join('\n');
    assert.equal(result.code, 2, result.stderr);
    assert.deepEqual([...new Set(result.states.map((state) => state.currentNode))], ['INIT', 'FAILED']);
    const metadata = result.states.at(-1)?.metadata as Record<string, unknown>;
    assert.equal(metadata.error, expected);
    assert.equal(metadata.failureKind, 'configuration');
    assert.ok(result.stderr.includes('IRONBEES_NUGET_SOURCE=<folder or URL>'), result.stderr);
    assert.equal(fake.requests.length, 0);
  });
});
