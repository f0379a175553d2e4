// What git says of each file of a fresh phase worktree against its main-workspace twin, on a real
// repository (test/support/twin-repo.ts): the same only when unmodified in main (neither staged nor
// changed nor hidden by assume-unchanged) with the same blob at both HEADs and no conversion; a file
// under a filter, or every file under core.autocrlf, is left to a comparison; git failing leaves all to it.

import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ProcessRunner } from '../../../src/core/host';
import { argumentChunks, twinsByGit } from '../../../src/core/workspace/git-twins';
import { NodeProcessRunner } from '../../../src/host/node/process-runner';
import { gitIn, twinRepo } from '../../support/twin-repo';
import type { TwinRepo } from '../../support/twin-repo';

const TRACKED = ['.gitattributes', 'Added.cs', 'Branch.cs', 'Digits.up', 'Modified.cs', 'Same.cs', 'Shout.up', 'Staged.cs'];

describe('twinsByGit', function () {
  this.timeout(60_000);
  let setup: TwinRepo | undefined;
  afterEach(() => {
    if (setup) rmSync(setup.root, { recursive: true, force: true });
    setup = undefined;
  });

  it('calls a file the same only when unmodified in main, with equal blobs and no filter', async () => {
    setup = await twinRepo();
    const twins = await twinsByGit(setup.repo, setup.tree);
    assert.deepEqual(twins.tracked, TRACKED);
    assert.deepEqual([...twins.same].sort(), ['.gitattributes', 'Same.cs']);
    assert.deepEqual([...twins.compare].sort(), ['Digits.up', 'Shout.up']);
  });

  it("reads the attributes of both trees: main's working .gitattributes and the worktree's", async () => {
    setup = await twinRepo();
    writeFileSync(path.join(setup.main, '.gitattributes'), 'Same.cs filter=upper\n');
    const twins = await twinsByGit(setup.repo, setup.tree);
    assert.deepEqual([...twins.same], []);
    assert.deepEqual([...twins.compare].sort(), ['Digits.up', 'Same.cs', 'Shout.up']);
  });

  it('leaves every unchanged file to a comparison when core.autocrlf is on', async () => {
    setup = await twinRepo();
    gitIn(setup.main, 'config', 'core.autocrlf', 'input');
    const twins = await twinsByGit(setup.repo, setup.tree);
    assert.deepEqual([...twins.same], []);
    assert.deepEqual([...twins.compare].sort(), ['.gitattributes', 'Digits.up', 'Same.cs', 'Shout.up']);
  });

  it('does not trust a file main marks assume-unchanged or skip-worktree', async () => {
    setup = await twinRepo();
    gitIn(setup.main, 'update-index', '--assume-unchanged', 'Same.cs');
    gitIn(setup.main, 'update-index', '--skip-worktree', '.gitattributes');
    const twins = await twinsByGit(setup.repo, setup.tree);
    assert.deepEqual([...twins.same], []);
    assert.deepEqual([...twins.compare].sort(), ['.gitattributes', 'Digits.up', 'Same.cs', 'Shout.up']);
  });

  it('leaves every file to a comparison when git cannot tell', async () => {
    const real = new NodeProcessRunner();
    const noStatus: ProcessRunner = {
      run: (command, args, options) =>
        args.includes('status')
          ? Promise.resolve({ exitCode: 128, stdout: '', stderr: 'fatal: broken', durationMs: 0, timedOut: false, cancelled: false })
          : real.run(command, args, options),
    };
    setup = await twinRepo(noStatus);
    const twins = await twinsByGit(setup.repo, setup.tree);
    assert.deepEqual(twins.tracked, TRACKED);
    assert.deepEqual([...twins.same], []);
    assert.deepEqual([...twins.compare].sort(), TRACKED);
  });
});

describe('argumentChunks', () => {
  it('cuts the paths into runs within the budget, in order, each path counted with 3 more', () => {
    assert.deepEqual(argumentChunks(['aaaa', 'bb', 'c', 'dddddd', 'e'], 13), [['aaaa', 'bb'], ['c', 'dddddd'], ['e']]);
    assert.deepEqual(argumentChunks(['a-path-longer-than-the-budget', 'b'], 10), [['a-path-longer-than-the-budget'], ['b']]);
    assert.deepEqual(argumentChunks([], 10), []);
  });
});
