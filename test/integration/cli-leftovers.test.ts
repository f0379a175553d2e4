// Nothing a CLI run started outlives it: after a real run on the calculator fixture (real dotnet, build
// servers on, the demo model), no process carrying the run's environment is left, neither MSBuild
// server and nodes nor a compiler server or test host. And the `dotnet --version` check is answered
// from the user cache on the next run, so it costs no second `dotnet` start.

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { copyFixture, ensureCliBuilt, removeDir, runCli, until } from '../support/cli-harness';
import { canListProcesses, processesMarked } from '../support/marked-processes';

const MARKER = 'IRONBEES_TEST_RUN_MARKER';

describe('a CLI run leaves nothing running (real dotnet, build servers on)', function () {
  this.timeout(600_000);
  let workspace: string;
  let cacheDir: string;

  before(function () {
    if (!canListProcesses()) this.skip();
    ensureCliBuilt();
  });
  beforeEach(() => {
    workspace = copyFixture('calculator');
    cacheDir = mkdtempSync(path.join(tmpdir(), 'ironbees-cache-'));
  });
  afterEach(() => {
    removeDir(workspace);
    removeDir(cacheDir);
  });

  it('no MSBuild, compiler or test-host process of the run remains after it exits; the SDK check is cached', async () => {
    const marker = randomUUID();
    const env = { [MARKER]: marker, IRONBEES_DOTNET_BUILD_SERVERS: '1', IRONBEES_SDK_CACHE: '1', IRONBEES_CACHE_DIR: cacheDir };
    const result = await runCli(['run', 'Fix the failing Calculator test', '--workspace', workspace, '--demo', '--yes', '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    // A signal takes effect at once, but the kernel may take a moment to reap: a bounded wait, not a sleep.
    const gone = await until(() => processesMarked(MARKER, marker).length === 0, 10_000);
    const left = processesMarked(MARKER, marker);
    assert.ok(gone, `left running: ${left.map((p) => `${p.pid} ${p.command}`).join('\n')}`);

    const cache = JSON.parse(readFileSync(path.join(cacheDir, 'dotnet-sdk.json'), 'utf8')) as Record<string, { version: string }>;
    const versions = Object.values(cache).map((entry) => entry.version);
    assert.equal(versions.length, 1);
    assert.match(versions[0] ?? '', /^\d+\.\d+\.\d+/);
    assert.ok(existsSync(path.join(workspace, '.ironbees', 'runs')));
  });
});
