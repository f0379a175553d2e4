// The layer rule (eslint-rules/layers.mjs) on snippets with upward imports, and the import-cycle check.
// rewrite-imports: skip-file (the snippets' imports are meant not to resolve)
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { ESLint } from 'eslint';
import { REPO, importCycles, importGraph } from './import-graph';

// The project's own lint configuration (eslint.config.mjs), run on snippets placed in the layers.
const eslint = new ESLint({ cwd: REPO });

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO, file) });
  return result.messages.filter((m) => m.ruleId === 'layers/imports-point-down').map((m) => `${m.line}: ${m.message}`);
}

describe('layers (npm run lint)', function () {
  this.timeout(60_000);

  it('refuses tools importing the model layer', async () => {
    const errors = await layerErrors(
      'src/core/tools/upward.ts',
      "import type { ModelToolDefinition } from '../llm/port';\nexport type T = ModelToolDefinition;\n",
    );
    assert.deepEqual(errors, [
      `1: Layer 'tools' may not import 'llm' (../llm/port): imports point down only (ARCHITECTURE.md, "The house").`,
    ]);
  });

  it('refuses agents importing mcp, and a dynamic import too', async () => {
    const code =
      "import { McpManager } from '../mcp/manager';\nexport const m = McpManager;\nexport const lazy = () => import('../mcp/config');\n";
    assert.deepEqual(await layerErrors('src/core/agents/upward.ts', code), [
      `1: Layer 'agents' may not import 'mcp' (../mcp/manager): imports point down only (ARCHITECTURE.md, "The house").`,
      `3: Layer 'agents' may not import 'mcp' (../mcp/config): imports point down only (ARCHITECTURE.md, "The house").`,
    ]);
  });

  it('refuses the kernel importing the workflow, and the workflow importing the composition root', async () => {
    assert.deepEqual(await layerErrors('src/core/upward.ts', "export { createOrchestrator } from './workflow/orchestrator';\n"), [
      `1: Layer 'kernel' may not import 'workflow' (./workflow/orchestrator): imports point down only (ARCHITECTURE.md, "The house").`,
    ]);
    assert.deepEqual(await layerErrors('src/core/workflow/upward.ts', "export * from '../runtime';\n"), [
      `1: Layer 'workflow' may not import 'runtime' (../runtime): imports point down only (ARCHITECTURE.md, "The house").`,
    ]);
  });

  it('refuses a host adapter importing the workflow, and a face importing another face', async () => {
    assert.deepEqual(await layerErrors('src/host/node/upward.ts', "export { RunStore } from '../../core/workflow/store';\n"), [
      `1: Layer 'host' may not import 'workflow' (../../core/workflow/store): imports point down only (ARCHITECTURE.md, "The house").`,
    ]);
    assert.deepEqual(await layerErrors('src/cli/sideways.ts', "export { activate } from '../extension/extension';\n"), [
      `1: Layer 'cli' may not import 'extension' (../extension/extension): imports point down only (ARCHITECTURE.md, "The house").`,
    ]);
  });

  it('lets the protocol take only types from the kernel, and keeps vscode out of the core', async () => {
    assert.deepEqual(
      await layerErrors('src/shared/values.ts', "import { TERMINAL_NODES } from '../core/model';\nexport const t = TERMINAL_NODES;\n"),
      ["1: Layer 'shared' may import 'kernel' for its types only (../core/model): use `import type`."],
    );
    assert.deepEqual(await layerErrors('src/core/dotnet/editor.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n"), [
      "1: Layer 'dotnet' may not import 'vscode': only the extension and the VS Code host adapter do.",
    ]);
  });

  it('keeps the platform just above the kernel: below every core layer, out of the protocol and the webview', async () => {
    assert.deepEqual(await layerErrors('src/core/platform/upward.ts', "export { StagedOverlay } from '../workspace/overlay';\n"), [
      `1: Layer 'platform' may not import 'workspace' (../workspace/overlay): imports point down only (ARCHITECTURE.md, "The house").`,
    ]);
    assert.deepEqual(await layerErrors('src/core/llm/downward.ts', "export { clip } from '../platform/text';\n"), []);
    assert.deepEqual(await layerErrors('webview-ui/src/upward.ts', "export { clip } from '../../src/core/platform/text';\n"), [
      `1: Layer 'webview' may not import 'platform' (../../src/core/platform/text): imports point down only (ARCHITECTURE.md, "The house").`,
    ]);
  });

  it('accepts imports that point down', async () => {
    const code =
      "import type { ToolDefinition } from '../tools/types';\nimport type { ModelClient } from '../llm/port';\nimport { errorMessage } from '../errors';\nexport type A = ToolDefinition | ModelClient;\nexport const e = errorMessage;\n";
    assert.deepEqual(await layerErrors('src/core/agents/downward.ts', code), []);
  });

  it('finds no import cycle in src/ and webview-ui/src/ (type-only imports included)', () => {
    const graph = importGraph();
    assert.ok(graph.size > 150, `read ${graph.size} files`);
    assert.deepEqual(importCycles(graph), []);
  });

  it('the cycle check itself finds a cycle', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    assert.deepEqual(importCycles(graph), [['a.ts', 'b.ts', 'c.ts']]);
  });
});
