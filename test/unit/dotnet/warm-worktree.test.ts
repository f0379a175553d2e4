// A phase's worktree starts from a COPY of the main workspace's build output, never a link into it;
// restore outputs are left for the worktree's own restore; generated text naming the main folder
// names the worktree's; checked-out files identical to their twin get the twin's times, others keep
// their own. Real files in temp folders.

import assert from 'node:assert/strict';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { rewritePaths, warmWorktree } from '../../../src/core/dotnet/warm-worktree';

const OLD = new Date('2024-03-01T10:00:00.250Z');
const BUILT = new Date('2024-03-01T10:05:00.500Z');
const NOW = new Date('2026-01-01T00:00:00Z');

function write(file: string, text: string, at: Date): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  utimesSync(file, at, at);
}

describe('warmWorktree', () => {
  let root: string;
  let main: string;
  let tree: string;

  beforeEach(() => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'ironbees-warm-')));
    main = path.join(root, 'main');
    tree = path.join(root, 'tree');
    write(path.join(main, 'src/Lib/Lib.csproj'), '<Project />', OLD);
    write(path.join(main, 'src/Lib/Same.cs'), 'class Same {}', OLD);
    write(path.join(main, 'src/Lib/Edited.cs'), 'class Edited {}', OLD);
    write(path.join(main, 'src/Lib/obj/Debug/net10.0/Lib.dll'), 'IL', BUILT);
    write(
      path.join(main, 'src/Lib/obj/Debug/net10.0/Lib.GeneratedMSBuildEditorConfig.editorconfig'),
      `build_property.ProjectDir = ${main}/src/Lib/\n`,
      BUILT,
    );
    write(path.join(main, 'src/Lib/obj/project.assets.json'), `{"path": "${main}/src/Lib/Lib.csproj"}`, BUILT);
    write(path.join(main, 'src/Lib/obj/Lib.csproj.nuget.dgspec.json'), `{"path": "${main}"}`, BUILT);
    write(path.join(main, 'src/Lib/obj/project.nuget.cache'), `{"path": "${main}"}`, BUILT);
    write(path.join(main, 'src/Lib/bin/Debug/net10.0/Lib.dll'), 'IL', BUILT);
    // The worktree as git checks it out: the same sources with the current time, one of them changed.
    write(path.join(tree, 'src/Lib/Lib.csproj'), '<Project />', NOW);
    write(path.join(tree, 'src/Lib/Same.cs'), 'class Same {}', NOW);
    write(path.join(tree, 'src/Lib/Edited.cs'), 'class Edited { int x; }', NOW);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const tracked = ['src/Lib/Lib.csproj', 'src/Lib/Same.cs', 'src/Lib/Edited.cs'];

  it('gives identical files their twin times and leaves a changed one newer than the copied output', async () => {
    const result = await warmWorktree(main, tree, tracked);
    assert.deepEqual(result, { projects: 1, unchanged: 2 });
    assert.equal(statSync(path.join(tree, 'src/Lib/Same.cs')).mtimeMs, OLD.getTime());
    assert.equal(statSync(path.join(tree, 'src/Lib/Lib.csproj')).mtimeMs, OLD.getTime());
    assert.equal(statSync(path.join(tree, 'src/Lib/Edited.cs')).mtimeMs, NOW.getTime());
    assert.equal(statSync(path.join(tree, 'src/Lib/obj/Debug/net10.0/Lib.dll')).mtimeMs, BUILT.getTime());
    assert.equal(statSync(path.join(tree, 'src/Lib/bin/Debug/net10.0/Lib.dll')).mtimeMs, BUILT.getTime());
  });

  it('takes what it is told of the twins: the same without reading, the rest compared or left', async () => {
    // Edited.cs is told the same: it gets the times though its content differs (it was not read);
    // Same.cs is told nothing (it differs): it keeps its own though its content is equal.
    write(path.join(tree, 'src/Lib/Edited.cs'), 'class Edxted {}', NOW);
    const twins = { same: new Set(['src/Lib/Edited.cs']), compare: new Set(['src/Lib/Lib.csproj']) };
    const result = await warmWorktree(main, tree, tracked, twins);
    assert.deepEqual(result, { projects: 1, unchanged: 2 });
    assert.equal(statSync(path.join(tree, 'src/Lib/Edited.cs')).mtimeMs, OLD.getTime());
    assert.equal(statSync(path.join(tree, 'src/Lib/Lib.csproj')).mtimeMs, OLD.getTime());
    assert.equal(statSync(path.join(tree, 'src/Lib/Same.cs')).mtimeMs, NOW.getTime());
  });

  it('gives no times to a file told the same whose size differs from its twin', async () => {
    const result = await warmWorktree(main, tree, tracked, { same: new Set(tracked), compare: new Set() });
    assert.equal(result.unchanged, 2);
    assert.equal(statSync(path.join(tree, 'src/Lib/Edited.cs')).mtimeMs, NOW.getTime());
  });

  it('copies (own files, never links) and leaves the restore outputs to the worktree restore', async () => {
    await warmWorktree(main, tree, tracked);
    const copied = path.join(tree, 'src/Lib/obj/Debug/net10.0/Lib.dll');
    const original = path.join(main, 'src/Lib/obj/Debug/net10.0/Lib.dll');
    assert.notEqual(statSync(copied).ino, statSync(original).ino);
    assert.equal(statSync(copied).nlink, 1);
    writeFileSync(copied, 'changed in the worktree');
    assert.equal(readFileSync(original, 'utf8'), 'IL');
    for (const name of ['project.assets.json', 'Lib.csproj.nuget.dgspec.json', 'project.nuget.cache']) {
      assert.equal(existsSync(path.join(tree, 'src/Lib/obj', name)), false, name);
    }
  });

  it('names the worktree folder in generated text, keeping its time', async () => {
    await warmWorktree(main, tree, tracked);
    const config = path.join(tree, 'src/Lib/obj/Debug/net10.0/Lib.GeneratedMSBuildEditorConfig.editorconfig');
    assert.equal(readFileSync(config, 'utf8'), `build_property.ProjectDir = ${tree}/src/Lib/\n`);
    assert.equal(statSync(config).mtimeMs, BUILT.getTime());
  });

  it('leaves a project that already has output in the worktree alone', async () => {
    write(path.join(tree, 'src/Lib/obj/own.txt'), 'own', NOW);
    const result = await warmWorktree(main, tree, tracked);
    assert.equal(result.projects, 0);
    assert.equal(existsSync(path.join(tree, 'src/Lib/obj/Debug')), false);
    assert.equal(existsSync(path.join(tree, 'src/Lib/bin')), false);
  });

  it('leaves a checked-out link alone: its time is the time of what it points to', async () => {
    const outside = path.join(root, 'outside.cs');
    write(outside, 'class Same {}', NOW);
    symlinkSync(outside, path.join(tree, 'src/Lib/Linked.cs'));
    write(path.join(main, 'src/Lib/Linked.cs'), 'class Same {}', OLD);
    const result = await warmWorktree(main, tree, [...tracked, 'src/Lib/Linked.cs']);
    assert.equal(result.unchanged, 2);
    assert.equal(statSync(outside).mtimeMs, NOW.getTime());
  });

  it('refuses to warm a folder from itself', async () => {
    await assert.rejects(warmWorktree(main, `${main}/`, tracked), /cannot be warmed from itself/);
  });
});

describe('rewritePaths', () => {
  it('rewrites the root as a whole folder name only', () => {
    const text = Buffer.from('/repo/src/A.cs;/repo-other/B.cs;"/repo"\n/repo');
    assert.equal(rewritePaths(text, '/repo', '/wt/x'), '/wt/x/src/A.cs;/repo-other/B.cs;"/wt/x"\n/wt/x');
  });

  it('is null for text that does not name the root', () => {
    assert.equal(rewritePaths(Buffer.from('nothing here'), '/repo', '/wt'), null);
  });
});
