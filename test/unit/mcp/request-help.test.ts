// apmas_request_help over MCP: for a run that lives in this server process it escalates the run
// (Orchestrator.requestHelp); otherwise, or when the orchestrator was never created, the request is
// recorded as an open escalation only, without starting a model or dotnet to find out.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createIronbeesMcpServer } from '../../../src/mcp-server/ironbees-server';
import type { Orchestrator } from '../../../src/core/trace';
import { createNodeHost } from '../../../src/host/node';

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function fakeOrchestrator(answer: boolean, calls: Array<[string, string]>): Orchestrator {
  const unused = (): never => {
    throw new Error('not used here');
  };
  return {
    execute: unused,
    resume: unused,
    approve: unused,
    cancel: unused,
    getState: unused,
    requestHelp: async (runId, reason) => (calls.push([runId, reason]), answer),
  };
}

describe('apmas_request_help and live runs', () => {
  let dir: string;
  let client: Client;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-mcp-help-'))));
  afterEach(async () => {
    await client?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function connect(existing: Orchestrator | null, created: { count: number }): Promise<void> {
    const server = createIronbeesMcpServer({
      host: createNodeHost(dir, { logger: quiet }),
      version: 'test',
      orchestrator: async () => {
        created.count++;
        throw new Error('no model in this test');
      },
      existingOrchestrator: () => existing,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
  }

  async function askForHelp(args: Record<string, unknown>): Promise<string> {
    const result = (await client.callTool({ name: 'apmas_request_help', arguments: args })) as CallToolResult;
    assert.ok(!result.isError, JSON.stringify(result));
    return (result.content[0] as { text: string }).text;
  }

  it('escalates a run that is live here, and still records the escalation', async () => {
    const calls: Array<[string, string]> = [];
    await connect(fakeOrchestrator(true, calls), { count: 0 });
    const text = await askForHelp({ runId: 'run-9', agent: 'coder', helpType: 'human', issue: 'Which rounding?', context: 'Divide(7, 2)' });
    assert.match(text, /run run-9 stopped its current step and waits for a person/);
    assert.deepEqual(calls, [['run-9', 'coder asks: Which rounding?\nDivide(7, 2)']]);
    const escalations = JSON.parse(
      fs.readFileSync(path.join(dir, '.ironbees', 'runs', 'run-9', 'coordination', 'escalations.json'), 'utf8'),
    ) as unknown[];
    assert.equal(escalations.length, 1);
  });

  it('only records when the run is not live here, when no orchestrator exists, and for help from another agent', async () => {
    const calls: Array<[string, string]> = [];
    await connect(fakeOrchestrator(false, calls), { count: 0 });
    assert.match(await askForHelp({ runId: 'run-9', helpType: 'clarification', issue: 'Spec?' }), /open escalation/);
    assert.match(
      await askForHelp({ runId: 'run-9', helpType: 'agent', targetAgent: 'reviewer', issue: 'Look?' }),
      /Help requested from reviewer/,
    );
    assert.equal(calls.length, 1, 'a request to another agent escalates nothing');
    await client.close();

    const created = { count: 0 };
    await connect(null, created);
    assert.match(await askForHelp({ runId: 'run-9', helpType: 'human', issue: 'Spec?' }), /open escalation/);
    assert.equal(created.count, 0, 'no orchestrator (model, dotnet) was created just to ask');
  });
});
