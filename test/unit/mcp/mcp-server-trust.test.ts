// `ironbees mcp` against a hostile repository: tools that run the repository's MSBuild or tests are
// not advertised as read-only, and the coordination store never reads or appends through a link.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createIronbeesMcpServer } from '../../../src/mcp-server/ironbees-server';
import { CoordinationStore } from '../../../src/mcp-server/coordination-store';
import { PathOutsideWorkspaceError } from '../../../src/core/errors';
import { createNodeHost } from '../../../src/host/node';

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('ironbees mcp: honest annotations and a contained coordination store', () => {
  let tmp: string;
  let root: string;
  let outside: string;
  let client: Client | undefined;

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-mcp-trust-'));
    root = path.join(tmp, 'ws');
    outside = path.join(tmp, 'outside');
    fs.mkdirSync(root);
    fs.mkdirSync(outside);
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function connect(): Promise<Client> {
    const server = createIronbeesMcpServer({
      host: createNodeHost(root, { logger: quiet }),
      version: 'test',
      orchestrator: () => Promise.reject(new Error('no runs here')),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    return client;
  }

  it('build, test, diagnostics, find_symbols and find_references (they run repository MSBuild) are not readOnlyHint', async () => {
    const tools = (await (await connect()).listTools()).tools;
    const readOnly = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint]));
    for (const name of ['build', 'test', 'diagnostics', 'find_symbols', 'find_references']) assert.equal(readOnly[name], false, name);
    // The coordination reads stay honest the other way too.
    assert.equal(readOnly.apmas_get_context, true);
  });

  it('a coordination folder that is a link out of the workspace: apmas_get_context reads nothing there, apmas_send_message appends nothing', async () => {
    fs.writeFileSync(
      path.join(outside, 'messages.jsonl'),
      `${JSON.stringify({ id: 'x', at: '', from: 'OUTSIDE_SECRET', to: 'a', type: 't', content: 'OUTSIDE_SECRET' })}\n`,
    );
    fs.writeFileSync(path.join(outside, 'agents.json'), JSON.stringify({ spy: { agent: 'OUTSIDE_SECRET', status: 'x', artifacts: [] } }));
    fs.mkdirSync(path.join(root, '.ironbees'));
    fs.symlinkSync(outside, path.join(root, '.ironbees', 'coordination'));
    const before = fs.readFileSync(path.join(outside, 'messages.jsonl'), 'utf8');
    const mcp = await connect();
    const context = (await mcp.callTool({ name: 'apmas_get_context', arguments: { include: ['agents', 'messages'] } })) as CallToolResult;
    const shown = (context.content[0] as { text: string }).text;
    assert.doesNotMatch(shown, /OUTSIDE_SECRET/);
    assert.equal(context.isError, true);
    const sent = (await mcp.callTool({
      name: 'apmas_send_message',
      arguments: { to: 'human', content: 'hello', type: 'info' },
    })) as CallToolResult;
    assert.equal(sent.isError, true, JSON.stringify(sent));
    assert.equal(fs.readFileSync(path.join(outside, 'messages.jsonl'), 'utf8'), before);
  });

  it('the store refuses a messages file that is a link, and a .ironbees that is a link', async () => {
    fs.mkdirSync(path.join(root, '.ironbees', 'coordination'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'environ'), 'SECRET=1');
    fs.symlinkSync(path.join(outside, 'environ'), path.join(root, '.ironbees', 'coordination', 'messages.jsonl'));
    const store = new CoordinationStore(createNodeHost(root, { logger: quiet }));
    await assert.rejects(store.messages(undefined, 10), PathOutsideWorkspaceError);
    await assert.rejects(
      store.appendMessage(undefined, { id: '1', at: '', from: 'a', to: 'b', type: 't', content: 'c' }),
      PathOutsideWorkspaceError,
    );
    assert.equal(fs.readFileSync(path.join(outside, 'environ'), 'utf8'), 'SECRET=1');

    fs.rmSync(path.join(root, '.ironbees'), { recursive: true });
    fs.symlinkSync(outside, path.join(root, '.ironbees'));
    await assert.rejects(
      store.updateAgent('run-1', 'coder', (r) => r),
      /symbolic link/,
    );
    assert.deepEqual(fs.readdirSync(outside).sort(), ['environ']);
  });
});
