import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeHost } from '../../../src/host/node';
import { agentsFileCandidates, loadInstructions } from '../../../src/core/agents/instructions';
import { mergeInstructionsRead } from '../../../src/core/workflow/instructions-read';
import { createMemoryHost } from '../../support/memory-host';

describe('instructions files (AGENTS.md and friends)', () => {
  it('looks for AGENTS.md at the root and in every folder down to each work file, shallow to deep', () => {
    assert.deepEqual(agentsFileCandidates(['src/App/Program.cs', 'tests/App.Tests/T.cs', './src/Lib/A.cs']), [
      'AGENTS.md',
      'src/AGENTS.md',
      'tests/AGENTS.md',
      'src/App/AGENTS.md',
      'src/Lib/AGENTS.md',
      'tests/App.Tests/AGENTS.md',
    ]);
  });

  it('nesting: the root and the nearer files on the path of the work files, nearest last; unrelated folders ignored', async () => {
    const host = createMemoryHost({
      'AGENTS.md': 'root rules',
      'src/AGENTS.md': 'src rules',
      'src/App/AGENTS.md': 'app rules',
      'docs/AGENTS.md': 'docs rules (not on the path)',
      'CLAUDE.md': 'claude rules (ignored: there is an AGENTS.md)',
      'src/App/Program.cs': 'class P {}',
    });
    const result = await loadInstructions(host, { workFiles: ['src/App/Program.cs'] });
    assert.deepEqual(
      result.files.map((f) => f.path),
      ['AGENTS.md', 'src/AGENTS.md', 'src/App/AGENTS.md'],
    );
    assert.ok(
      result.text.indexOf('root rules') < result.text.indexOf('src rules') &&
        result.text.indexOf('src rules') < result.text.indexOf('app rules'),
    );
    assert.match(result.text, /the file nearer to the code you are changing wins/);
    assert.doesNotMatch(result.text, /docs rules|claude rules/);
    const planner = await loadInstructions(host, { workFiles: [] });
    assert.deepEqual(
      planner.files.map((f) => f.path),
      ['AGENTS.md'],
    );
  });

  it('reads every candidate at once, keeping the order of the files in what it returns', async () => {
    const host = createMemoryHost({ 'src/App/AGENTS.md': 'app rules', 'AGENTS.md': 'root rules', 'docs/style.md': 'style guide' });
    const inner = host.fs.readFile.bind(host.fs);
    let inFlight = 0;
    let most = 0;
    host.fs.readFile = async (p: string) => {
      most = Math.max(most, (inFlight += 1));
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      return inner(p);
    };
    const result = await loadInstructions(host, { workFiles: ['src/App/Program.cs'], contextFiles: ['docs/style.md'] });
    // AGENTS.md, src/AGENTS.md, src/App/AGENTS.md, the two fallbacks and the context file: six reads in flight together.
    assert.equal(most, 6);
    assert.deepEqual(
      result.files.map((f) => f.path),
      ['AGENTS.md', 'src/App/AGENTS.md', 'docs/style.md'],
    );
  });

  it('reads CLAUDE.md and .github/copilot-instructions.md only when the root has no AGENTS.md, plus --context files', async () => {
    const host = createMemoryHost({
      'CLAUDE.md': 'claude rules',
      '.github/copilot-instructions.md': 'copilot rules',
      'docs/style.md': 'style guide',
    });
    const result = await loadInstructions(host, { workFiles: [], contextFiles: [path.join(host.workspaceRoot, 'docs/style.md')] });
    assert.deepEqual(
      result.files.map((f) => f.path),
      ['.github/copilot-instructions.md', 'CLAUDE.md', 'docs/style.md'],
    );
    assert.match(result.text, /### CLAUDE\.md\n\nclaude rules/);
    assert.match(result.text, /### docs\/style\.md\n\nstyle guide/);
  });

  it('caps the whole section and says what was cut', async () => {
    const host = createMemoryHost({ 'AGENTS.md': 'a'.repeat(80), 'src/AGENTS.md': 'b'.repeat(50) });
    const result = await loadInstructions(host, { workFiles: ['src/X.cs'], maxChars: 100 });
    assert.deepEqual(result.files, [
      { path: 'AGENTS.md', chars: 80, truncated: false },
      { path: 'src/AGENTS.md', chars: 50, truncated: true },
    ]);
    assert.match(
      result.text,
      new RegExp(
        `${'b'.repeat(20)}\\n\\[… cut: 30 more characters of src/AGENTS\\.md not shown \\(instructions are capped at 100 characters\\)\\]`,
      ),
    );
    assert.doesNotMatch(result.text, new RegExp('b'.repeat(21)));
  });

  it('never reads outside the workspace through a plan path, and an empty workspace gives nothing', async () => {
    const host = createMemoryHost({});
    const result = await loadInstructions(host, { workFiles: ['../../etc/passwd', '../outside/x.cs'] });
    assert.deepEqual(result, { text: '', files: [] });
  });

  it('the state keeps one entry per path, the latest read winning', () => {
    const merged = mergeInstructionsRead(
      [
        { path: 'AGENTS.md', chars: 10, truncated: false },
        { path: 'src/AGENTS.md', chars: 5, truncated: false },
      ],
      [{ path: 'AGENTS.md', chars: 12, truncated: false }],
    );
    assert.deepEqual(merged, [
      { path: 'src/AGENTS.md', chars: 5, truncated: false },
      { path: 'AGENTS.md', chars: 12, truncated: false },
    ]);
  });

  it('an AGENTS.md or a context file inside the workspace that is a link leading out is never read', async () => {
    const tmp = nodeFs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-instructions-'));
    try {
      const root = path.join(tmp, 'ws');
      nodeFs.mkdirSync(path.join(root, 'docs'), { recursive: true });
      nodeFs.writeFileSync(path.join(tmp, 'secret.txt'), 'OUTSIDE_SECRET');
      nodeFs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(root, 'AGENTS.md'));
      nodeFs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(root, 'docs', 'rules.md'));
      const warned: string[] = [];
      const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
      const result = await loadInstructions(createNodeHost(root, { logger: quiet }), {
        workFiles: [],
        contextFiles: ['docs/rules.md'],
        warn: (m) => warned.push(m),
      });
      assert.deepEqual(result, { text: '', files: [] });
      assert.equal(warned.length, 1);
      assert.match(
        warned[0],
        /^The context file docs\/rules\.md is left out: Refused path "docs\/rules\.md": it goes through a symbolic link that leads outside/,
      );
    } finally {
      nodeFs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
