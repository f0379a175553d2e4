import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PathOutsideWorkspaceError } from '../../../src/core/errors';
import { resolveWorkspacePath } from '../../../src/core/workspace/paths';

describe('resolveWorkspacePath', () => {
  let tmp: string;
  let root: string;

  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-paths-')));
    root = path.join(tmp, 'ws');
    fs.mkdirSync(path.join(root, 'src', 'App'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'App', 'Program.cs'), 'class P {}');
    fs.mkdirSync(path.join(tmp, 'outside'));
    fs.writeFileSync(path.join(tmp, 'outside', 'secret.txt'), 'secret');
    fs.symlinkSync(path.join(tmp, 'outside'), path.join(root, 'escape'), 'dir');
    fs.symlinkSync(path.join(tmp, 'outside', 'secret.txt'), path.join(root, 'secret-link.txt'), 'file');
    fs.symlinkSync(path.join(root, 'src'), path.join(root, 'inner-link'), 'dir');
    fs.symlinkSync(path.join(tmp, 'outside', 'not-yet.txt'), path.join(root, 'dangling.txt'), 'file');
    fs.mkdirSync(path.join(root, '.git'));
    fs.symlinkSync(path.join(root, '.git'), path.join(root, 'git-alias'), 'dir');
  });

  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const refused = (rel: string, pattern?: RegExp): void => {
    assert.throws(
      () => resolveWorkspacePath(root, rel),
      (error: unknown) => {
        assert.ok(error instanceof PathOutsideWorkspaceError, `expected PathOutsideWorkspaceError for ${rel}`);
        if (pattern) assert.match(error.message, pattern);
        return true;
      },
    );
  };

  it('normalises relative paths to forward slashes without a leading ./', () => {
    assert.deepEqual(resolveWorkspacePath(root, './src/App/Program.cs'), {
      abs: path.join(root, 'src', 'App', 'Program.cs'),
      rel: 'src/App/Program.cs',
    });
    assert.equal(resolveWorkspacePath(root, 'src\\App\\Program.cs').rel, 'src/App/Program.cs');
    assert.equal(resolveWorkspacePath(root, 'src//App/./x/../Program.cs').rel, 'src/App/Program.cs');
    assert.equal(resolveWorkspacePath(root, '  src/App/Program.cs ').rel, 'src/App/Program.cs');
  });

  it('maps the root itself to the empty relative path', () => {
    assert.equal(resolveWorkspacePath(root, '.').rel, '');
    assert.equal(resolveWorkspacePath(root, '').rel, '');
    assert.equal(resolveWorkspacePath(root, './').rel, '');
  });

  it('accepts absolute paths inside the workspace, refuses those outside', () => {
    assert.equal(resolveWorkspacePath(root, path.join(root, 'src', 'New.cs')).rel, 'src/New.cs');
    refused('/etc/passwd', /absolute path outside the workspace/);
    refused(path.join(tmp, 'outside', 'secret.txt'), /outside the workspace/);
  });

  it('refuses .. escapes, including ones that pass through a real folder first', () => {
    refused('../outside/secret.txt', /leads outside the workspace/);
    refused('src/../../outside/secret.txt');
    refused('..');
    assert.equal(resolveWorkspacePath(root, 'src/../README.md').rel, 'README.md');
  });

  it('refuses a sibling folder whose name starts like the root', () => {
    fs.mkdirSync(`${root}2`, { recursive: true });
    refused(`../ws2/file.txt`);
    refused(`${root}2/file.txt`);
  });

  it('refuses .git and .ironbees at any depth, in any case', () => {
    refused('.git/config', /\.git\/ belongs to the tooling/);
    refused('.GIT/HEAD');
    refused('.ironbees/runs/x/state.json', /\.ironbees/);
    refused('.IronBees');
    refused('lib/sub/.git/config');
    refused('src/../.git/config');
    assert.equal(resolveWorkspacePath(root, '.github/workflows/ci.yml').rel, '.github/workflows/ci.yml');
    assert.equal(resolveWorkspacePath(root, 'src/my.git.cs').rel, 'src/my.git.cs');
  });

  it('refuses symlinks that lead outside the workspace, for existing and new files', () => {
    refused('escape/secret.txt', /symbolic link/);
    refused('escape/new-file.cs', /symbolic link/);
    refused('escape/deeper/new/file.cs', /symbolic link/);
    refused('secret-link.txt', /symbolic link/);
    refused('escape');
  });

  it('refuses a dangling symlink whose target is outside', () => {
    refused('dangling.txt', /symbolic link/);
  });

  it('refuses a symlink into .git', () => {
    refused('git-alias/config', /\.git/);
  });

  it('accepts symlinks that stay inside the workspace, reporting the path as given', () => {
    const resolved = resolveWorkspacePath(root, 'inner-link/App/Program.cs');
    assert.equal(resolved.rel, 'inner-link/App/Program.cs');
    assert.equal(resolved.abs, path.join(root, 'inner-link', 'App', 'Program.cs'));
  });

  it('works when the root itself is reached through a symlink', () => {
    const linkedRoot = path.join(tmp, 'linked-ws');
    fs.symlinkSync(root, linkedRoot, 'dir');
    assert.equal(resolveWorkspacePath(linkedRoot, 'src/App/Program.cs').rel, 'src/App/Program.cs');
    assert.throws(() => resolveWorkspacePath(linkedRoot, 'escape/secret.txt'), PathOutsideWorkspaceError);
  });

  it('works for a workspace that does not exist yet (in-memory hosts)', () => {
    const ghost = path.join(tmp, 'ghost', 'ws');
    assert.equal(resolveWorkspacePath(ghost, 'a/b.cs').rel, 'a/b.cs');
    assert.throws(() => resolveWorkspacePath(ghost, '../x'), PathOutsideWorkspaceError);
  });

  it('refuses NUL bytes and non-strings', () => {
    refused('src/a\0.cs', /NUL/);
    refused(42 as unknown as string, /must be text/);
  });
});
