// Ironbees as an MCP server, driven by the SDK's own Client over stdio and Streamable HTTP.

import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, copyFixture, ensureCliBuilt, removeDir } from '../support/cli-harness';

const text = (result: unknown): string => ((result as CallToolResult).content[0] as { text: string }).text;

describe('ironbees mcp (SDK client)', function () {
  this.timeout(240_000);
  let workspace: string;
  before(() => {
    ensureCliBuilt();
    workspace = copyFixture('calculator');
  });
  after(() => removeDir(workspace));

  it('over stdio: lists the tools, finds symbols, builds with parsed results, coordinates through apmas_*', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--workspace', workspace], stderr: 'pipe' }),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name).sort();
      for (const name of [
        'find_symbols',
        'find_references',
        'diagnostics',
        'build',
        'test',
        'start_run',
        'get_run_state',
        'approve_run',
        'cancel_run',
        'apmas_heartbeat',
        'apmas_report_status',
        'apmas_checkpoint',
        'apmas_get_context',
        'apmas_send_message',
        'apmas_request_help',
        'apmas_complete',
      ]) {
        assert.ok(names.includes(name), `${name} is offered`);
      }
      assert.match(text(await client.callTool({ name: 'find_symbols', arguments: { query: 'Divide' } })), /Calculator\.cs/);
      const bad = (await client.callTool({ name: 'find_symbols', arguments: { query: 5 } })) as CallToolResult;
      assert.ok(bad.isError && /\[InvalidInput\]/.test(text(bad)));
      const unknown = (await client.callTool({ name: 'nope', arguments: {} })) as CallToolResult;
      assert.ok(unknown.isError && /\[NotFound\]/.test(text(unknown)));

      const runId = 'r-apmas';
      await client.callTool({ name: 'apmas_heartbeat', arguments: { runId, agent: 'coder', status: 'working', progress: 'reading' } });
      assert.match(
        text(
          await client.callTool({
            name: 'apmas_checkpoint',
            arguments: { runId, agent: 'coder', summary: 'half', completedItems: ['a'], pendingItems: ['b'] },
          }),
        ),
        /50% complete/,
      );
      assert.ok(
        existsSync(path.join(workspace, '.ironbees', 'runs', runId, 'coordination', 'checkpoints', 'coder.json')),
        'checkpoint persisted',
      );
      await client.callTool({
        name: 'apmas_send_message',
        arguments: { runId, agent: 'coder', to: 'reviewer', type: 'question', content: 'ok?' },
      });
      await client.callTool({ name: 'apmas_request_help', arguments: { runId, agent: 'coder', helpType: 'human', issue: 'spec unclear' } });
      await client.callTool({ name: 'apmas_complete', arguments: { runId, agent: 'coder', summary: 'done' } });
      const context = JSON.parse(text(await client.callTool({ name: 'apmas_get_context', arguments: { runId } }))) as {
        agents: Record<string, { status: string }>;
        messages: Array<{ type: string }>;
        escalations: Array<{ content: string }>;
      };
      assert.equal(context.agents.coder.status, 'completed');
      assert.deepEqual(
        context.messages.map((m) => m.type),
        ['question', 'help:human', 'done'],
      );
      assert.equal(context.escalations[0].content, 'spec unclear');

      const build = (await client.callTool({ name: 'build', arguments: {} })) as CallToolResult;
      const parsed = build.structuredContent as { success: boolean; errors: unknown[] };
      assert.equal(parsed.success, true, text(build));
      assert.deepEqual(parsed.errors, []);
    } finally {
      await client.close();
    }
  });

  describe('over Streamable HTTP on 127.0.0.1', () => {
    let child: ChildProcess;
    let url: string;
    const token = 'a-test-token-of-enough-length';
    before(async () => {
      child = spawn(process.execPath, [CLI, 'mcp', '--http', '--port', '0', '--workspace', workspace], {
        env: { ...process.env, IRONBEES_MCP_TOKEN: token },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      url = await new Promise<string>((resolve, reject) => {
        let err = '';
        child.stderr?.on('data', (chunk: Buffer) => {
          err += chunk.toString();
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
          if (match) resolve(match[1]);
        });
        child.once('exit', () => reject(new Error(`server exited: ${err}`)));
      });
    });
    after(() => {
      child.stdin?.end();
      child.kill();
    });

    it('refuses a wrong token with 401', async () => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { Authorization: 'Bearer wrong', 'Content-Type': 'application/json' },
        body: '{}',
      });
      assert.equal(response.status, 401);
      const client = new Client({ name: 'test', version: '1' });
      await assert.rejects(
        client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer nope' } } })),
      );
    });

    it('serves the tools with the right token', async () => {
      const client = new Client({ name: 'test', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
      );
      try {
        assert.match(
          text(await client.callTool({ name: 'find_references', arguments: { symbol: 'Divide' } })),
          /CalcTests\.cs|Calculator\.cs/,
        );
      } finally {
        await client.close();
      }
    });
  });
});
