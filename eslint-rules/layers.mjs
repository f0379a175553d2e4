// The layer rule of ARCHITECTURE.md ("The house"), as lint: every folder is a layer and imports point
// down only. A relative import is resolved to the folder it lands in and refused when that layer is
// not below (or beside, where the table says so) the importing one. Tests and benches are not layers.
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = dirname(dirname(fileURLToPath(import.meta.url)));
const CORE = ['kernel', 'platform', 'llm', 'workspace', 'dotnet', 'csharp', 'tools', 'mcp', 'agents', 'workflow', 'runtime'];

/** What each layer may import besides itself. The order is the house's, bottom first. */
export const ALLOWED = {
  kernel: [],
  // The machine's plumbing beside the kernel: child processes' environment and sandbox, commands on
  // PATH, the user's cache folder, text made safe to show.
  platform: ['kernel'],
  llm: ['kernel', 'platform'],
  workspace: ['kernel', 'platform'],
  dotnet: ['kernel', 'platform', 'workspace'],
  csharp: ['kernel', 'platform', 'workspace'],
  // Tools never see the model's wire format: a provider maps tool definitions itself.
  tools: ['kernel', 'platform', 'workspace', 'dotnet', 'csharp'],
  mcp: ['kernel', 'platform', 'workspace', 'dotnet', 'csharp', 'tools'],
  // Agents get MCP tools as a tool source the runtime registers, never from mcp/ itself.
  agents: ['kernel', 'platform', 'llm', 'workspace', 'dotnet', 'csharp', 'tools'],
  workflow: ['kernel', 'platform', 'llm', 'workspace', 'dotnet', 'csharp', 'tools', 'mcp', 'agents'],
  runtime: CORE.filter((layer) => layer !== 'runtime'),
  // Host adapters answer the Host port. The exceptions: with no language server, symbols come from
  // the C# engine or text index, which the adapters build (tests construct hosts as createNodeHost(root));
  // the engine opens the build target dotnet finds; listings go through the one containment check.
  host: ['kernel', 'platform', 'workspace', 'dotnet', 'csharp'],
  // The faces reach dotnet, the tools and the run store through the composition root (runtime/faces.ts).
  'mcp-server': [...CORE.filter((layer) => !['dotnet', 'tools', 'workflow'].includes(layer)), 'host'],
  // The ACP agent is a face like the MCP server: it drives runs through the orchestrator it is given.
  acp: [...CORE.filter((layer) => !['dotnet', 'tools', 'workflow'].includes(layer)), 'host'],
  // The served API gets its runtimes from the CLI that starts it; it reads run folders through faces.ts.
  serve: [...CORE.filter((layer) => !['dotnet', 'tools', 'workflow'].includes(layer)), 'host', 'shared'],
  cli: [...CORE.filter((layer) => layer !== 'dotnet'), 'host', 'mcp-server', 'acp', 'serve', 'shared'],
  extension: [...CORE, 'host', 'shared'],
  shared: ['kernel'],
  webview: ['shared', 'kernel'],
};

/**
 * Layers that may import the layers below only for their types: the protocol is types and schemas.
 * (The webview may read kernel data, such as the node table, which is plain constants.)
 */
const TYPES_ONLY = { shared: ['kernel'] };

/** The layer a repo-relative path (with or without extension) belongs to, or undefined for tests etc. */
export function layerOf(path) {
  const p = path.split('\\').join('/');
  if (/^src\/core\/runtime(\.ts|\/|$)/.test(p)) return 'runtime';
  const core = /^src\/core\/([^/]+)\//.exec(p);
  if (core) return CORE.includes(core[1]) ? core[1] : undefined;
  if (/^src\/core\/[^/]+$/.test(p)) return 'kernel';
  if (/^src\/host\//.test(p)) return 'host';
  const face = /^src\/(mcp-server|acp|serve|cli|extension|shared)\//.exec(p);
  if (face) return face[1];
  if (/^webview-ui\/src\//.test(p)) return 'webview';
  return undefined;
}

const VSCODE_ALLOWED = new Set(['extension', 'host']);

export const layersPlugin = {
  rules: {
    'imports-point-down': {
      meta: {
        type: 'problem',
        docs: { description: 'Imports point down the layers of ARCHITECTURE.md only.' },
        schema: [],
        messages: {
          upward: "Layer '{{from}}' may not import '{{to}}' ({{specifier}}): imports point down only (ARCHITECTURE.md, \"The house\").",
          typesOnly: "Layer '{{from}}' may import '{{to}}' for its types only ({{specifier}}): use `import type`.",
          vscode: "Layer '{{from}}' may not import 'vscode': only the extension and the VS Code host adapter do.",
        },
      },
      create(context) {
        const file = relative(REPO, context.filename).split('\\').join('/');
        const from = layerOf(file);
        if (!from) return {};
        const check = (node, source, typeOnly) => {
          const specifier = source && typeof source.value === 'string' ? source.value : undefined;
          if (!specifier) return;
          if (specifier === 'vscode') {
            if (!VSCODE_ALLOWED.has(from)) context.report({ node, messageId: 'vscode', data: { from } });
            return;
          }
          if (!specifier.startsWith('.')) return;
          const target = relative(REPO, resolve(dirname(context.filename), specifier))
            .split('\\')
            .join('/');
          const to = layerOf(target);
          if (!to || to === from) return;
          if (!ALLOWED[from].includes(to)) {
            context.report({ node, messageId: 'upward', data: { from, to, specifier } });
          } else if (TYPES_ONLY[from]?.includes(to) && !typeOnly) {
            context.report({ node, messageId: 'typesOnly', data: { from, to, specifier } });
          }
        };
        return {
          ImportDeclaration: (node) => check(node, node.source, node.importKind === 'type'),
          ExportNamedDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
          ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
          ImportExpression: (node) => check(node, node.source, false),
        };
      },
    },
  },
};
