// `.ironbees` is the run's own folder: a repository that ships it as a link (or a run folder as a
// link) must not make a run write its state, lock or journal outside the workspace, nor read a run from there.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigurationError, PathOutsideWorkspaceError } from '../../../src/core/errors';
import { acquireRunLock } from '../../../src/core/workflow/run-lock';
import { RunStore } from '../../../src/core/workflow/store';
import { createNodeHost } from '../../../src/host/node';
import { checkToolingFolder, resolveToolingPath } from '../../../src/core/workspace/paths';

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('.ironbees is never a link', () => {
  let tmp: string;
  let root: string;
  let outside: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-tooling-'));
    root = path.join(tmp, 'ws');
    outside = path.join(tmp, 'outside');
    fs.mkdirSync(root);
    fs.mkdirSync(outside);
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('a symbolic-link .ironbees: the run lock and the layout are refused, nothing is written where it points', async () => {
    fs.symlinkSync(outside, path.join(root, '.ironbees'));
    assert.throws(() => acquireRunLock(root, 'r-1'), ConfigurationError);
    assert.throws(() => checkToolingFolder(root), /\.ironbees is a symbolic link/);
    await assert.rejects(new RunStore(createNodeHost(root, { logger: quiet })).ensureLayout(), ConfigurationError);
    assert.deepEqual(fs.readdirSync(outside), []);
  });

  it('a link to a folder inside the workspace is refused as well; a real folder, or none, is fine', () => {
    fs.mkdirSync(path.join(root, 'state'));
    fs.symlinkSync(path.join(root, 'state'), path.join(root, '.ironbees'));
    assert.throws(() => checkToolingFolder(root), ConfigurationError);
    fs.rmSync(path.join(root, '.ironbees'));
    assert.doesNotThrow(() => checkToolingFolder(root));
    fs.mkdirSync(path.join(root, '.ironbees'));
    assert.doesNotThrow(() => checkToolingFolder(root));
  });

  it('a run folder that is a link out of the workspace is not loaded', async () => {
    fs.mkdirSync(path.join(root, '.ironbees', 'runs'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'state.json'), '{"schemaVersion":1}');
    fs.symlinkSync(outside, path.join(root, '.ironbees', 'runs', 'r-linked'));
    await assert.rejects(new RunStore(createNodeHost(root, { logger: quiet })).load('r-linked'), PathOutsideWorkspaceError);
  });

  it('resolveToolingPath takes only .ironbees/ paths, and still refuses .git inside them', () => {
    assert.equal(resolveToolingPath(root, '.ironbees/runs/x/state.json'), path.join(root, '.ironbees', 'runs', 'x', 'state.json'));
    assert.throws(() => resolveToolingPath(root, 'src/App.cs'), /not inside \.ironbees\//);
    assert.throws(() => resolveToolingPath(root, '.ironbees/.git/config'), /\.git\/ belongs to the tooling/);
    assert.throws(() => resolveToolingPath(root, '.ironbees/../../outside'), /leads outside the workspace/);
  });
});
