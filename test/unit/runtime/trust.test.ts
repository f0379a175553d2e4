// The trust gate's decision (core/runtime/trust.ts): what the workspace defines, who may trust it,
// and that a "yes" is remembered outside the workspace, per real folder, in a private file.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decideWorkspaceTrust, isRememberedTrusted, trustedFoldersFile, workspaceDefinitions } from '../../../src/core/runtime/trust';

describe('trust gate (core/runtime/trust.ts)', () => {
  let workspace: string;
  let cache: string;
  let env: Record<string, string>;

  beforeEach(() => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-trust-ws-'));
    cache = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-trust-cache-'));
    env = { IRONBEES_CACHE_DIR: cache };
  });
  afterEach(() => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(cache, { recursive: true, force: true });
  });

  function define(): void {
    fs.mkdirSync(path.join(workspace, '.ironbees', 'agents', 'planner'), { recursive: true });
    fs.writeFileSync(path.join(workspace, '.ironbees', 'mcp.json'), '{"mcpServers":{}}');
  }

  it('names each workspace agent and the MCP config; nothing for a workspace that defines neither', () => {
    assert.deepEqual(workspaceDefinitions(workspace), []);
    define();
    assert.deepEqual(
      workspaceDefinitions(workspace).map((item) => item.path),
      ['.ironbees/agents/planner/', '.ironbees/mcp.json'],
    );
  });

  it('a workspace that defines nothing is never asked about and nothing is said', async () => {
    const notices: string[] = [];
    let asked = 0;
    const decision = await decideWorkspaceTrust({
      workspaceRoot: workspace,
      flag: false,
      env,
      notice: (l) => notices.push(l),
      ask: async () => ((asked += 1), true),
    });
    assert.deepEqual({ asked, notices, defined: decision.defined }, { asked: 0, notices: [], defined: [] });
  });

  it('untrusted: one line per ignored item, nothing remembered', async () => {
    define();
    const notices: string[] = [];
    const decision = await decideWorkspaceTrust({ workspaceRoot: workspace, flag: false, env, notice: (l) => notices.push(l) });
    assert.equal(decision.trusted, false);
    assert.deepEqual(notices, [
      'Ignored .ironbees/agents/planner/ (a workspace agent (its prompt and model)): this workspace is not trusted; pass --trust-workspace to use it.',
      'Ignored .ironbees/mcp.json (MCP servers (processes started, URLs contacted)): this workspace is not trusted; pass --trust-workspace to use it.',
    ]);
    assert.equal(fs.existsSync(trustedFoldersFile(env)), false);
  });

  it('the flag trusts for this command only; a "no" leaves it untrusted', async () => {
    define();
    const notices: string[] = [];
    assert.equal((await decideWorkspaceTrust({ workspaceRoot: workspace, flag: true, env, notice: (l) => notices.push(l) })).trusted, true);
    assert.equal(notices.length, 0);
    assert.equal(isRememberedTrusted(workspace, env), false);
    assert.equal(
      (await decideWorkspaceTrust({ workspaceRoot: workspace, flag: false, env, notice: (l) => notices.push(l), ask: async () => false }))
        .trusted,
      false,
    );
    assert.equal(notices.length, 2);
  });

  it('a "yes" is remembered by the real path, in a private file outside the workspace; the next command is not asked', async () => {
    define();
    const link = `${workspace}-link`;
    fs.symlinkSync(workspace, link);
    try {
      const asked: string[][] = [];
      const ask = async (defined: readonly { path: string }[]): Promise<boolean> => (asked.push(defined.map((d) => d.path)), true);
      assert.equal(
        (await decideWorkspaceTrust({ workspaceRoot: workspace, flag: false, env, notice: () => undefined, ask })).trusted,
        true,
      );
      assert.deepEqual(asked, [['.ironbees/agents/planner/', '.ironbees/mcp.json']]);
      const file = trustedFoldersFile(env);
      assert.equal(path.relative(workspace, file).startsWith('..'), true);
      if (process.platform !== 'win32') assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.equal((await decideWorkspaceTrust({ workspaceRoot: link, flag: false, env, notice: () => undefined, ask })).trusted, true);
      assert.equal(asked.length, 1);
    } finally {
      fs.rmSync(link, { force: true });
    }
  });
});
