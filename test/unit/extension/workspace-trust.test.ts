// The editor's trust gate: a workspace's agents and MCP servers are used only when VS Code trusts the
// workspace and the person confirmed them in a dialog listing them; otherwise each is named in the log.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { TRUST_BUTTON, editorWorkspaceTrust } from '../../../src/extension/workspace-trust';
import type { EditorTrustDeps } from '../../../src/extension/workspace-trust';

class MemoryMemento {
  readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Thenable<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
}

describe('editor trust gate (extension/workspace-trust.ts)', () => {
  let root: string;
  let warned: string[];
  let asked: Array<{ detail: string }>;
  let memento: MemoryMemento;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-editor-trust-'));
    warned = [];
    asked = [];
    memento = new MemoryMemento();
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  function deps(trustedByVscode: boolean, answer: string | undefined): EditorTrustDeps {
    return {
      workspaceRoot: root,
      memento: memento as unknown as vscode.Memento,
      logger: { debug: () => undefined, info: () => undefined, warn: (m) => warned.push(m), error: () => undefined },
      isTrusted: () => trustedByVscode,
      confirm: async (_message, detail) => (asked.push({ detail }), answer),
    };
  }

  function define(): void {
    fs.mkdirSync(path.join(root, '.ironbees', 'agents', 'coder'), { recursive: true });
    fs.writeFileSync(path.join(root, '.ironbees', 'mcp.json'), '{}');
  }

  it('a workspace that defines nothing: no dialog, nothing logged', async () => {
    assert.equal(await editorWorkspaceTrust(deps(true, TRUST_BUTTON)), false);
    assert.deepEqual([asked, warned], [[], []]);
  });

  it('VS Code does not trust the workspace: no dialog, each item named', async () => {
    define();
    assert.equal(await editorWorkspaceTrust(deps(false, TRUST_BUTTON)), false);
    assert.equal(asked.length, 0);
    assert.deepEqual(warned, [
      'Ignored .ironbees/agents/coder/ (a workspace agent (its prompt and model)): this workspace is not trusted; trust the workspace in VS Code, then confirm it to Ironbees.',
      'Ignored .ironbees/mcp.json (MCP servers (processes started, URLs contacted)): this workspace is not trusted; trust the workspace in VS Code, then confirm it to Ironbees.',
    ]);
  });

  it('trusted by VS Code: the dialog lists what is defined; dismissed, nothing is used; confirmed, remembered', async () => {
    define();
    assert.equal(await editorWorkspaceTrust(deps(true, undefined)), false);
    assert.deepEqual(asked, [
      {
        detail:
          '.ironbees/agents/coder/: a workspace agent (its prompt and model)\n.ironbees/mcp.json: MCP servers (processes started, URLs contacted)',
      },
    ]);
    assert.equal(warned.length, 2);
    assert.equal(await editorWorkspaceTrust(deps(true, TRUST_BUTTON)), true);
    assert.equal(await editorWorkspaceTrust(deps(true, undefined)), true, 'remembered: not asked again');
    assert.equal(asked.length, 2);
  });
});
