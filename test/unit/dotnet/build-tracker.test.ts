import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  noteBuildErrors,
  projectsFailingToBuild,
  restoreRunning,
  restoresSettled,
  trackRestore,
} from '../../../src/core/dotnet/build-tracker';
import { RoslynEngine } from '../../../src/core/csharp/engine/roslyn-engine';
import { useEngine } from '../../support/roslyn-engine';

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('build tracker', () => {
  const root = path.resolve('/tracked-workspace');

  it('remembers the projects the latest build reported errors in (null before any build)', () => {
    const other = path.resolve('/never-built');
    assert.equal(projectsFailingToBuild(other), null);
    noteBuildErrors(root, [{ project: 'src\\B\\B.csproj' }, { project: 'src/A/A.csproj' }, {}, { project: 'src/A/A.csproj' }]);
    assert.deepEqual(projectsFailingToBuild(`${root}/`), ['src/A/A.csproj', 'src/B/B.csproj']);
    noteBuildErrors(root, []);
    assert.deepEqual(projectsFailingToBuild(root), []);
    assert.equal(projectsFailingToBuild(other), null);
  });

  it('settles at once when nothing restores, and only after every tracked restore ends (a failed one too)', async () => {
    await restoresSettled(root);
    const first = deferred();
    const second = deferred();
    void trackRestore(root, first.promise);
    void trackRestore(`${root}/`, second.promise).catch(() => undefined);
    assert.equal(restoreRunning(root), true);
    const order: string[] = [];
    const settled = restoresSettled(root).then(() => order.push('settled'));
    first.resolve();
    await first.promise;
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(order, []);
    second.reject(new Error('restore failed'));
    await settled;
    assert.deepEqual(order, ['settled']);
    assert.equal(restoreRunning(root), false);
    assert.equal(restoreRunning(path.resolve('/other-workspace')), false);
  });

  it('the engine client starts no process before the workspace restore settles', async () => {
    const undo = useEngine();
    try {
      const restore = deferred();
      let asked = 0;
      // A real folder, so the process starts (and fails: the engine's dll is not there).
      const workspace = os.tmpdir();
      const engine = new RoslynEngine({
        workspaceRoot: workspace,
        target: async () => path.join(workspace, 'A.sln'),
        enginePath: path.join(workspace, 'ironbees-missing-engine.dll'),
        restoresSettled: async () => {
          asked++;
          await restore.promise;
        },
        maxStarts: 1,
        timeouts: { openMs: 30_000 },
      });
      const question = engine.query('ping', {}).catch((error: unknown) => error);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(asked, 1);
      assert.equal(engine.lastPid, undefined);
      restore.resolve();
      assert.match(String(await question), /the C# engine/);
      assert.notEqual(engine.lastPid, undefined);
      await engine.dispose();
    } finally {
      undo();
    }
  });
});
