// The Microsoft.Testing.Platform fixture through the VS Code host: the validator's build and test runs go
// through VS Code tasks (the host's process runner), and the baseline still counts exactly what
// `dotnet test` counts (6 tests, 2 failing). The MSTest project, which opted into the platform, runs as the
// application it is (`dotnet exec` on the assembly its build printed); xunit v3 through `dotnet test`.

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../../src/core/host';
import { shutdownBuildServers } from '../../../src/core/dotnet/dotnet-cli';
import { captureBaseline } from '../../../src/core/dotnet/validator';
import { sandboxActive } from '../../../src/core/platform/sandbox';
import { createVscodeHost } from '../../../src/host/vscode/index';

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('the MTP fixture through the VS Code host (real dotnet, tasks)', function () {
  this.timeout(900_000);
  let root = '';

  before(() => {
    // esbuild bundles this file into dist/test/vscode; the fixtures stay in the checkout.
    const fixture = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'mtp-ledger');
    root = mkdtempSync(path.join(tmpdir(), 'ironbees-vscode-mtp-'));
    cpSync(fixture, root, { recursive: true, filter: (source) => !/[\\/](bin|obj)$/.test(source) });
  });
  after(async () => {
    await shutdownBuildServers(createVscodeHost(root, { logger: quiet, languageServer: false }));
    rmSync(root, { recursive: true, force: true });
  });

  it('the baseline counts 6 tests, 2 failing, by name; the test runs are Test tasks', async () => {
    const host = createVscodeHost(root, { logger: quiet, languageServer: false });
    const started: vscode.Task[] = [];
    const listener = vscode.tasks.onDidStartTask((event) => started.push(event.execution.task));
    try {
      const baseline = await captureBaseline({ host, timeouts: { buildMs: 600_000, testMs: 240_000 } });
      assert.equal(baseline.build.success, true, JSON.stringify(baseline.build.errors.slice(0, 3)));
      const test = baseline.test;
      assert.deepEqual([test?.total, test?.passed, test?.failed, test?.skipped], [6, 4, 2, 0]);
      assert.deepEqual(test?.failures.map((failure) => failure.testName).sort(), [
        'Ledger.MSTests.FeeTests.Withdraw_LeavesRemainder',
        'Ledger.XunitTests.AccountTests.Withdraw_SubtractsFromBalance',
      ]);
      const ours = started.filter((task) => task.source === 'Ironbees');
      // The baseline's commands carry its label, so their terminals say they are the starting point.
      // In the sandbox, restore (the one step with network) is a command of its own.
      const restore = sandboxActive() ? ['baseline dotnet restore'] : [];
      // The MSTest app and the xunit v3 app run directly (`dotnet exec`), no `dotnet test`.
      assert.deepEqual(ours.map((task) => task.name).sort(), [
        'baseline dotnet build',
        'baseline dotnet exec',
        'baseline dotnet exec',
        ...restore,
      ]);
      assert.deepEqual(
        ours
          .filter((task) => task.name !== 'baseline dotnet build' && task.name !== 'baseline dotnet restore')
          .map((task) => task.group?.id),
        [vscode.TaskGroup.Test.id, vscode.TaskGroup.Test.id],
      );
    } finally {
      listener.dispose();
    }
  });
});
