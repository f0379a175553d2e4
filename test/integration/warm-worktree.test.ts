// A warmed phase worktree with real git and dotnet (test/fixtures/multi; git tells which checked-out
// files equal their twins): its first build skips the untouched project whose inputs are unchanged
// (its compiled assembly is not written again), an edit in the worktree is compiled into the
// worktree's output, the main workspace's obj/ and bin/ are never written, and the worktree's restore
// outputs name the worktree (no obj/ shared with the main one).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { warmWorktree } from '../../src/core/dotnet/warm-worktree';
import { twinsByGit } from '../../src/core/workspace/git-twins';
import { GitRepo } from '../../src/core/workspace/git-worktrees';
import { NodeProcessRunner } from '../../src/host/node/process-runner';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'multi');
const DOTNET_ENV = {
  ...process.env,
  DOTNET_CLI_TELEMETRY_OPTOUT: '1',
  DOTNET_NOLOGO: '1',
  MSBUILDDISABLENODEREUSE: '1',
  DOTNET_CLI_USE_MSBUILD_SERVER: '0',
  UseSharedCompilation: 'false',
};
const TEXTKIT_DLL = 'src/TextKit/obj/Debug/net10.0/TextKit.dll';

function dotnet(cwd: string, ...args: string[]): void {
  execFileSync('dotnet', [...args, '-nologo', '-tl:off', '-v:q'], { cwd, env: DOTNET_ENV, stdio: 'pipe', timeout: 600_000 });
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@localhost', '-c', 'user.name=T', ...args], { cwd, encoding: 'utf8' });
}

/** Every file under the obj/ and bin/ folders of `root`, with its time and size. */
function outputs(root: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string, inOutput: boolean): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.git') walk(full, inOutput || entry.name === 'obj' || entry.name === 'bin');
      } else if (inOutput) {
        const stat = statSync(full);
        found.set(path.relative(root, full), `${stat.mtimeMs} ${stat.size}`);
      }
    }
  };
  walk(root, false);
  return found;
}

describe('a warmed worktree builds with MSBuild incrementally and on its own', function () {
  this.timeout(900_000);
  let root: string;
  let main: string;
  let tree: string;
  let mainOutputs: Map<string, string>;

  before(() => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'ironbees-warm-build-')));
    main = path.join(root, 'main');
    tree = path.join(root, 'tree');
    cpSync(FIXTURE, main, { recursive: true, filter: (source) => !/[\\/](bin|obj)$/.test(source) });
    git(main, 'init', '--quiet', '--initial-branch=main');
    git(main, 'add', '-A');
    git(main, 'commit', '--quiet', '-m', 'fixture');
    dotnet(main, 'build', 'Multi.sln');
    git(main, 'worktree', 'add', '--quiet', '-b', 'phase', tree);
    mainOutputs = outputs(main);
  });
  after(() => {
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: main, stdio: 'ignore' });
    rmSync(root, { recursive: true, force: true });
  });

  it('skips the untouched project, and its restore outputs name the worktree', async () => {
    const tracked = git(tree, 'ls-files', '-z').split('\0').filter(Boolean);
    const twins = await twinsByGit(await GitRepo.open(new NodeProcessRunner(), main), tree);
    assert.deepEqual(twins.tracked, tracked);
    assert.equal(twins.same.size, tracked.length, 'git vouches for every file of the fresh worktree');
    const warmed = await warmWorktree(main, tree, tracked, twins);
    assert.equal(warmed.projects, 4);
    assert.equal(warmed.unchanged, tracked.length);
    dotnet(tree, 'restore', 'Multi.sln');
    const before = statSync(path.join(tree, TEXTKIT_DLL)).mtimeMs;
    dotnet(tree, 'build', 'Multi.sln', '--no-restore');
    assert.equal(statSync(path.join(tree, TEXTKIT_DLL)).mtimeMs, before, 'TextKit was compiled again');
    const assets = readFileSync(path.join(tree, 'src/TextKit/obj/project.assets.json'), 'utf8');
    assert.ok(assets.includes(path.join(tree, 'src/TextKit/TextKit.csproj')), 'the assets name the worktree project');
    assert.ok(!assets.includes(main + path.sep), 'the assets name the main workspace');
    const config = readFileSync(path.join(tree, 'src/TextKit/obj/Debug/net10.0/TextKit.GeneratedMSBuildEditorConfig.editorconfig'), 'utf8');
    assert.ok(config.includes(`build_property.ProjectDir = ${tree}/src/TextKit/`), config);
    assert.deepEqual(outputs(main), mainOutputs, "the main workspace's obj/ or bin/ changed");
  });

  it('compiles an edit made in the worktree into the worktree only', () => {
    appendFileSync(
      path.join(tree, 'src/TextKit/Slug.cs'),
      '\npublic static class WarmEditProbe\n{\n    public static int Value => 7;\n}\n',
    );
    const before = statSync(path.join(tree, TEXTKIT_DLL)).mtimeMs;
    dotnet(tree, 'build', 'Multi.sln', '--no-restore');
    assert.ok(statSync(path.join(tree, TEXTKIT_DLL)).mtimeMs > before, 'the edited project was not compiled');
    for (const dll of [TEXTKIT_DLL, 'src/Reporting/bin/Debug/net10.0/TextKit.dll', 'tests/TextKit.Tests/bin/Debug/net10.0/TextKit.dll']) {
      assert.ok(readFileSync(path.join(tree, dll)).includes('WarmEditProbe'), `${dll} lacks the edit`);
    }
    assert.ok(!readFileSync(path.join(main, TEXTKIT_DLL)).includes('WarmEditProbe'), 'the edit reached the main workspace');
    assert.deepEqual(outputs(main), mainOutputs, "the main workspace's obj/ or bin/ changed");
  });
});
