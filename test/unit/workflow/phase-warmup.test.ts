// Warming a phase worktree on a real repository (test/support/twin-repo.ts): only the checked-out
// files identical to their main-workspace twin get the twin's times; one modified or staged in main,
// changed or added on the integration branch, or changed by a checkout filter keeps its own, though
// every change keeps the file's size.

import assert from 'node:assert/strict';
import { rmSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { warmPhaseTree } from '../../../src/core/workflow/phase-warmup';
import { TWIN_TIME, twinRepo } from '../../support/twin-repo';
import type { TwinRepo } from '../../support/twin-repo';

describe('warmPhaseTree', function () {
  this.timeout(60_000);
  let setup: TwinRepo;
  beforeEach(async () => {
    setup = await twinRepo();
  });
  afterEach(() => rmSync(setup.root, { recursive: true, force: true }));

  it('gives the twin times to the identical files only', async () => {
    const files = ['.gitattributes', 'Added.cs', 'Branch.cs', 'Digits.up', 'Modified.cs', 'Same.cs', 'Shout.up', 'Staged.cs'];
    const checkedOut = new Map(files.map((file) => [file, statSync(path.join(setup.tree, file)).mtimeMs]));
    assert.deepEqual(await warmPhaseTree(setup.repo, setup.tree), { projects: 0, unchanged: 3 });
    const times = Object.fromEntries(files.map((file) => [file, statSync(path.join(setup.tree, file)).mtimeMs]));
    const twin = TWIN_TIME.getTime();
    assert.deepEqual(times, {
      '.gitattributes': twin,
      'Added.cs': checkedOut.get('Added.cs'),
      'Branch.cs': checkedOut.get('Branch.cs'),
      'Digits.up': twin,
      'Modified.cs': checkedOut.get('Modified.cs'),
      'Same.cs': twin,
      'Shout.up': checkedOut.get('Shout.up'),
      'Staged.cs': checkedOut.get('Staged.cs'),
    });
  });
});
