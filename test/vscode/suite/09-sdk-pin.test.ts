// A workspace whose global.json pins a .NET SDK that is not installed: Run Agent starts nothing and the
// person is told which file pins which SDK and which SDKs are installed (the check the CLI runs too).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ironbees, workspaceRoot } from './helpers';

const PINNED = '8.0.100';

function installedSdks(): string[] {
  return [...spawnSync('dotnet', ['--list-sdks'], { encoding: 'utf8' }).stdout.matchAll(/^(\S+) \[/gm)].map((match) => match[1] ?? '');
}

describe('a global.json pinning an SDK that is not installed (real extension host, real dotnet)', function () {
  this.timeout(120_000);
  const globalJson = (): string => path.join(workspaceRoot(), 'global.json');

  after(async () => {
    fs.rmSync(globalJson(), { force: true });
    (await ironbees()).controller.invalidateRuntime();
  });

  it('the run does not start; the error names the pinned and the installed SDKs; nothing is written', async function () {
    const installed = installedSdks();
    if (installed.includes(PINNED)) this.skip();
    fs.writeFileSync(globalJson(), JSON.stringify({ sdk: { version: PINNED, rollForward: 'disable' } }));
    const { controller } = await ironbees();
    // The check runs when the runtime is built: as on a first run in this folder.
    controller.invalidateRuntime();
    const runsBefore = (await controller.history()).length;
    await assert.rejects(controller.start('Fix the failing Calculator test'), (error: unknown) => {
      assert.equal(
        (error as Error).message,
        `${globalJson()} pins .NET SDK ${PINNED}, which is not installed (installed SDKs: ${installed.join(', ')}). ` +
          `Install SDK ${PINNED}, or change "sdk.version" (or "rollForward") in that global.json to match an installed SDK.`,
      );
      return true;
    });
    assert.equal(controller.isLive, false);
    assert.equal((await controller.history()).length, runsBefore);
  });
});
