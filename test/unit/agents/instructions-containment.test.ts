// AGENTS.md (and its fallbacks) are read through the one containment check: a repository whose
// AGENTS.md is a symlink to a file outside the workspace (a secret, /proc/self/environ) gets nothing
// of it into a prompt.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadInstructions } from '../../../src/core/agents/instructions';
import { createNodeHost } from '../../../src/host/node';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('AGENTS.md containment', () => {
  let root: string;
  let workspace: string;
  before(function () {
    if (process.platform === 'win32') this.skip();
  });
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-agents-md-'));
    workspace = path.join(root, 'ws');
    fs.mkdirSync(path.join(workspace, 'src', 'App'), { recursive: true });
    fs.writeFileSync(path.join(root, 'secret.txt'), 'OUTSIDE-SECRET-7f3a');
    fs.writeFileSync(path.join(workspace, 'src', 'App', 'Program.cs'), 'class P {}');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a symlinked AGENTS.md, CLAUDE.md or folder AGENTS.md leading outside is not read', async () => {
    fs.symlinkSync(path.join(root, 'secret.txt'), path.join(workspace, 'AGENTS.md'));
    fs.symlinkSync(path.join(root, 'secret.txt'), path.join(workspace, 'CLAUDE.md'));
    fs.symlinkSync(path.join(root, 'secret.txt'), path.join(workspace, 'src', 'AGENTS.md'));
    fs.writeFileSync(path.join(workspace, 'src', 'App', 'AGENTS.md'), 'app rules');
    const result = await loadInstructions(createNodeHost(workspace, { logger: silent }), { workFiles: ['src/App/Program.cs'] });
    assert.deepEqual(
      result.files.map((file) => file.path),
      ['src/App/AGENTS.md'],
    );
    assert.doesNotMatch(result.text, /OUTSIDE-SECRET/);
    assert.match(result.text, /app rules/);
  });

  it('a symlink inside the workspace is followed (containment is about where it leads)', async () => {
    fs.writeFileSync(path.join(workspace, 'RULES.md'), 'root rules');
    fs.symlinkSync(path.join(workspace, 'RULES.md'), path.join(workspace, 'AGENTS.md'));
    const result = await loadInstructions(createNodeHost(workspace, { logger: silent }), { workFiles: [] });
    assert.deepEqual(
      result.files.map((file) => file.path),
      ['AGENTS.md'],
    );
    assert.match(result.text, /root rules/);
  });
});
