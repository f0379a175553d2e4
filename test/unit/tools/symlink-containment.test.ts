// One symlink fixture driven through every reader and writer: the model's tools, the C# text index,
// applying and reverting edits, and the MCP server's tools. A link that leads outside the workspace
// (or into .git/) is never read, listed, searched or indexed; no edit goes through any link.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PathOutsideWorkspaceError } from '../../../src/core/errors';
import type { Host, Logger } from '../../../src/core/host';
import { createIronbeesMcpServer } from '../../../src/mcp-server/ironbees-server';
import { findReferencesTool, findSymbolsTool } from '../../../src/core/tools/symbol-tools';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { ToolDefinition, ToolOutcome } from '../../../src/core/tools/types';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { listFilesTool } from '../../../src/core/tools/workspace/list-files';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import { readFileTool } from '../../../src/core/tools/workspace/read-file';
import { searchTextTool } from '../../../src/core/tools/workspace/search-text';
import { textEditorTool } from '../../../src/core/tools/workspace/text-editor';
import { RunStore } from '../../../src/core/workflow/store';
import type { PersistedRun } from '../../../src/core/workflow/store';
import { NodeFileSystem, createNodeHost } from '../../../src/host/node';
import { CSharpTextIndex } from '../../../src/core/csharp/text-index';

const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const HINT = 'use a path relative to the workspace root, e.g. "src/App/Program.cs"';
const outsideRefusal = (rel: string): string =>
  `Refused path "${rel}": it goes through a symbolic link that leads outside the workspace; ${HINT}`;
const linkWriteRefusal = (rel: string, real: string): string =>
  `Refused path "${rel}": it is, or goes through, a symbolic link (it resolves to ${real}); Ironbees does not edit through links, ` +
  'because the write would replace the link with a file. Edit the file the link points to instead';
const gitRefusal = (rel: string): string =>
  `Refused path "${rel}": .git/ belongs to the tooling and is off limits; work with the project's own files`;

/** Every outside (or .git) line carries this marker; a query may echo it, but no answer may show one of those lines. */
const MARK = 'OUTSIDE_LINE';
const OUTSIDE_LINES = new RegExp(`= "${MARK}"|${MARK} notes|${MARK} SecretVault`);

describe('containment: a symlink fixture through every tool', function () {
  this.timeout(30_000);
  let tmp: string;
  let root: string;
  let host: Host;
  const registry = new ToolRegistry()
    .register(readFileTool)
    .register(listFilesTool)
    .register(searchTextTool)
    .register(findSymbolsTool)
    .register(findReferencesTool)
    .register(textEditorTool);
  const outsideBytes = (): string => fs.readFileSync(path.join(tmp, 'outside', 'Secret.cs'), 'utf8');

  const call = async (tool: ToolDefinition, input: unknown, overlay = new StagedOverlay(host)): Promise<ToolOutcome> => {
    const outcome = await registry.execute(tool, input, { host, overlay });
    const text = outcome.ok ? outcome.content : outcome.error;
    assert.doesNotMatch(text, OUTSIDE_LINES, `${tool.name} ${JSON.stringify(input)} showed an outside line: ${text}`);
    return outcome;
  };
  const ok = async (tool: ToolDefinition, input: unknown, overlay?: StagedOverlay): Promise<string> => {
    const outcome = await call(tool, input, overlay);
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
    return outcome.content;
  };
  const refused = async (tool: ToolDefinition, input: unknown, message: string, overlay?: StagedOverlay): Promise<void> => {
    const outcome = await call(tool, input, overlay);
    assert.equal(outcome.ok, false, `${tool.name} ${JSON.stringify(input)} should be refused`);
    if (!outcome.ok) assert.equal(outcome.error, message);
  };

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-symlinks-'));
    root = path.join(tmp, 'ws');
    fs.mkdirSync(path.join(tmp, 'outside'));
    fs.writeFileSync(
      path.join(tmp, 'outside', 'Secret.cs'),
      `namespace Outside;\npublic class SecretVault { string p = "${MARK}"; } // ${MARK} SecretVault\n`,
    );
    fs.writeFileSync(path.join(tmp, 'outside', 'notes.txt'), `${MARK} notes\n`);
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'App.cs'), 'public class App\n{\n    SecretVault vault;\n}\n');
    fs.writeFileSync(path.join(root, 'src', 'Real.cs'), 'public class Real { }\n');
    fs.mkdirSync(path.join(root, '.git'));
    fs.writeFileSync(path.join(root, '.git', 'Hooks.cs'), `class GitHook { string s = "${MARK}"; SecretVault v; }\n`);
    fs.symlinkSync(path.join(tmp, 'outside', 'Secret.cs'), path.join(root, 'src', 'Vault.cs'), 'file');
    fs.symlinkSync(path.join(tmp, 'outside', 'notes.txt'), path.join(root, 'notes.txt'), 'file');
    fs.symlinkSync(path.join(tmp, 'outside'), path.join(root, 'outdir'), 'dir');
    fs.symlinkSync(path.join(root, '.git', 'Hooks.cs'), path.join(root, 'Hooks.cs'), 'file');
    fs.symlinkSync(path.join(root, 'src', 'Real.cs'), path.join(root, 'Inner.cs'), 'file');
    host = createNodeHost(root, { logger: silent });
  });

  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  afterEach(() => {
    // Nothing any tool did replaced a link with a file or changed what a link points to.
    assert.ok(fs.lstatSync(path.join(root, 'src', 'Vault.cs')).isSymbolicLink());
    assert.ok(fs.lstatSync(path.join(root, 'Inner.cs')).isSymbolicLink());
    assert.ok(fs.lstatSync(path.join(root, 'notes.txt')).isSymbolicLink());
    assert.equal(fs.readFileSync(path.join(root, 'src', 'Real.cs'), 'utf8'), 'public class Real { }\n');
    assert.ok(outsideBytes().includes('public class SecretVault'));
    assert.deepEqual(fs.readdirSync(path.join(tmp, 'outside')).sort(), ['Secret.cs', 'notes.txt']);
  });

  it('read_file refuses links leading out or into .git, and reads a link that stays inside', async () => {
    await refused(readFileTool, { path: 'src/Vault.cs' }, outsideRefusal('src/Vault.cs'));
    await refused(readFileTool, { path: 'notes.txt' }, outsideRefusal('notes.txt'));
    await refused(readFileTool, { path: 'outdir/Secret.cs' }, outsideRefusal('outdir/Secret.cs'));
    await refused(readFileTool, { path: 'Hooks.cs' }, gitRefusal('Hooks.cs'));
    assert.equal(await ok(readFileTool, { path: 'Inner.cs' }), 'Inner.cs (lines 1-1 of 1)\n     1\tpublic class Real { }');
  });

  it("the node host's listing leaves out links that lead out of the walked folder", async () => {
    assert.deepEqual(await new NodeFileSystem().listFiles(root), ['Inner.cs', 'src/App.cs', 'src/Real.cs']);
    assert.deepEqual(await new NodeFileSystem().listFiles(path.join(root, 'src')), ['App.cs', 'Real.cs']);
  });

  it('the overlay and the C# index apply the check themselves, whatever the host lists', async () => {
    // A host whose listing follows every link (as another HostFileSystem might) must not widen what the core shows.
    const naive = new NaiveListingFileSystem();
    const naiveHost: Host = { ...host, fs: naive, symbols: new CSharpTextIndex(naive, root) };
    assert.ok((await naive.listFiles(root)).includes('src/Vault.cs'), 'the naive host does list the outside link');
    assert.deepEqual(await new StagedOverlay(naiveHost).listFiles(), ['Inner.cs', 'src/App.cs', 'src/Real.cs']);
    assert.deepEqual(
      (await naiveHost.symbols.findReferences('SecretVault')).map((r) => `${r.filePath}:${r.line}`),
      ['src/App.cs:3'],
    );
    assert.deepEqual(await naiveHost.symbols.findSymbols('GitHook'), []);
  });

  it('list_files lists exactly the contained files', async () => {
    assert.equal(await ok(listFilesTool, {}), '3 file(s) in .:\nInner.cs\nsrc/App.cs\nsrc/Real.cs');
    assert.equal(await ok(listFilesTool, { path: 'src' }), '2 file(s) in src:\nsrc/App.cs\nsrc/Real.cs');
    await refused(listFilesTool, { path: 'outdir' }, outsideRefusal('outdir'));
  });

  it('search_text never searches an outside file, as text or regex', async () => {
    assert.equal(await ok(searchTextTool, { query: MARK }), `No matches for "${MARK}" in ..`);
    assert.equal(await ok(searchTextTool, { query: 'OUTSIDE_\\w+', isRegex: true }), 'No matches for "OUTSIDE_\\\\w+" in ..');
    assert.equal(
      await ok(searchTextTool, { query: 'SecretVault' }),
      '1 match(es) for "SecretVault" in .:\nsrc/App.cs:3: SecretVault vault;',
    );
    await refused(searchTextTool, { query: MARK, path: 'src/Vault.cs' }, outsideRefusal('src/Vault.cs'));
    await refused(searchTextTool, { query: MARK, path: 'outdir' }, outsideRefusal('outdir'));
  });

  it('find_symbols and find_references (the C# index) never index an outside or .git file', async () => {
    // The first symbol answer of a host says once that the text index answers (mocha runs with the engine off).
    const notice =
      '[C# symbols come from the text index (names only, no types), because the C# engine is turned off (IRONBEES_ROSLYN=0). Same-named symbols may be mixed up; check with read_file.]\n';
    assert.equal(
      await ok(findSymbolsTool, { query: 'SecretVault' }),
      notice + 'No symbols matching "SecretVault". Try a shorter part of the name, another kind, or search_text.',
    );
    assert.equal(
      await ok(findSymbolsTool, { query: 'GitHook' }),
      'No symbols matching "GitHook". Try a shorter part of the name, another kind, or search_text.',
    );
    assert.equal(
      await ok(findReferencesTool, { symbol: 'SecretVault' }),
      '1 reference(s) to "SecretVault":\nsrc/App.cs:3:5: SecretVault vault;',
    );
    await refused(findSymbolsTool, { at: 'src/Vault.cs:2:14' }, outsideRefusal('src/Vault.cs'));
    await refused(findReferencesTool, { at: 'src/Vault.cs:2:14' }, outsideRefusal('src/Vault.cs'));
  });

  it('the editor refuses create, str_replace and insert through any link, staging nothing', async () => {
    const overlay = new StagedOverlay(host);
    await refused(textEditorTool, { command: 'create', path: 'src/Vault.cs', file_text: 'x' }, outsideRefusal('src/Vault.cs'), overlay);
    await refused(textEditorTool, { command: 'create', path: 'outdir/New.cs', file_text: 'x' }, outsideRefusal('outdir/New.cs'), overlay);
    await refused(
      textEditorTool,
      { command: 'insert', path: 'notes.txt', insert_line: 0, insert_text: 'x\n' },
      outsideRefusal('notes.txt'),
      overlay,
    );
    await refused(
      textEditorTool,
      { command: 'str_replace', path: 'Inner.cs', old_str: 'Real', new_str: 'Fake' },
      linkWriteRefusal('Inner.cs', 'src/Real.cs'),
      overlay,
    );
    await refused(
      textEditorTool,
      { command: 'insert', path: 'Inner.cs', insert_line: 0, insert_text: '// x\n' },
      linkWriteRefusal('Inner.cs', 'src/Real.cs'),
      overlay,
    );
    await refused(
      textEditorTool,
      { command: 'create', path: 'Inner.cs', file_text: 'class Other { }\n' },
      linkWriteRefusal('Inner.cs', 'src/Real.cs'),
      overlay,
    );
    assert.deepEqual(overlay.stagedPaths(), []);
    assert.deepEqual(await overlay.edits(), []);
  });

  it('applyEdits and revert refuse an edit through a link before writing anything', async () => {
    const store = new RunStore(host);
    const refusedWrite =
      (message: string) =>
      (error: unknown): boolean => {
        assert.ok(error instanceof PathOutsideWorkspaceError);
        assert.equal(error.message, message);
        return true;
      };
    await assert.rejects(
      store.journal.applyEdits('r-links', [
        makeFileEdit('src/New.cs', null, 'class New { }\n'),
        makeFileEdit('Inner.cs', 'public class Real { }\n', 'public class Fake { }\n'),
      ]),
      refusedWrite(linkWriteRefusal('Inner.cs', 'src/Real.cs')),
    );
    await assert.rejects(
      store.journal.applyEdits('r-links', [makeFileEdit('src/Vault.cs', null, 'x')]),
      refusedWrite(outsideRefusal('src/Vault.cs')),
    );
    assert.equal(fs.existsSync(path.join(root, 'src', 'New.cs')), false, 'nothing of the refused set was written');
    // A journal naming a link (one made after the edit was applied) is refused whole on revert.
    const runDir = path.join(root, '.ironbees', 'runs', 'r-links');
    fs.mkdirSync(path.join(runDir, 'edits'), { recursive: true });
    // Saved by the store, so signed here: a revert of a run folder from elsewhere is refused before this check.
    await store.save({ schemaVersion: 1, runId: 'r-links' } as unknown as PersistedRun);
    fs.writeFileSync(path.join(runDir, 'edits', 'index.json'), JSON.stringify({ files: { 'Inner.cs': { existed: false, blob: null } } }));
    await assert.rejects(store.journal.revert('r-links'), refusedWrite(linkWriteRefusal('Inner.cs', 'src/Real.cs')));
  });

  it("the MCP server's tools answer from contained files only", async () => {
    const server = createIronbeesMcpServer({ host, version: 'test', orchestrator: () => Promise.reject(new Error('no runs here')) });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    try {
      const text = async (name: string, args: Record<string, unknown>): Promise<string> => {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        const shown = (result.content[0] as { text: string }).text;
        assert.doesNotMatch(shown, OUTSIDE_LINES, `${name} showed an outside line: ${shown}`);
        return shown;
      };
      assert.equal(
        await text('find_references', { symbol: 'SecretVault' }),
        '1 reference(s) to "SecretVault":\nsrc/App.cs:3:5: SecretVault vault;',
      );
      assert.equal(
        await text('find_symbols', { query: 'SecretVault' }),
        'No symbols matching "SecretVault". Try a shorter part of the name, another kind, or search_text.',
      );
      assert.equal(await text('find_symbols', { at: 'src/Vault.cs:2:14' }), `[Forbidden] ${outsideRefusal('src/Vault.cs')}`);
      assert.equal(await text('diagnostics', { paths: ['src/App.cs', 'src/Vault.cs'] }), `[Forbidden] ${outsideRefusal('src/Vault.cs')}`);
      assert.equal(
        await text('build', { target: 'outdir/Evil.csproj' }),
        `[InvalidInput] The build target "outdir/Evil.csproj" is outside the workspace ${root}.`,
      );
    } finally {
      await client.close();
      await server.close();
    }
  });
});

/** Lists every file and file link under a folder, following nothing and checking nothing. */
class NaiveListingFileSystem extends NodeFileSystem {
  override listFiles(absDir: string): Promise<string[]> {
    const all = fs.readdirSync(absDir, { recursive: true, encoding: 'utf8' }).map((f) => f.split(path.sep).join('/'));
    return Promise.resolve(all.filter((f) => !f.startsWith('.git') && fs.statSync(path.join(absDir, f)).isFile()).sort());
  }
}
