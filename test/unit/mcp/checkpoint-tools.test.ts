// The MCP tools list_checkpoints and rewind, through the SDK's client on an in-memory transport,
// over a run made by fake steps: the same list and the same rewind as the CLI's.

import { strict as assert } from 'node:assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createIronbeesMcpServer } from '../../../src/mcp-server/ironbees-server';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { FakeSteps } from '../workflow/fake-steps';
import { StateStream, TempWorkspace, orchestratorOver } from '../workflow/orchestrator-harness';
import { baseline, codeOutput, failing, passing, planOutput, workflow } from '../workflow/samples';

const V0 = 'class A {}\n';
const V1 = 'class A { int X; }\n';
const V2 = 'class A { int Y; }\n';

describe('MCP list_checkpoints and rewind', function () {
  this.timeout(20_000);
  let ws: TempWorkspace;
  let client: Client;
  beforeEach(() => (ws = new TempWorkspace()));
  afterEach(async () => {
    await client?.close();
    ws.remove();
  });

  async function twoIterations(): Promise<string> {
    ws.write('src/A.cs', V0);
    const steps = new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script('code', { output: codeOutput([makeFileEdit('src/A.cs', V0, V1)]) })
      .script('validate', { output: failing(1) })
      .script('code', { output: codeOutput([makeFileEdit('src/A.cs', V1, V2)]) })
      .script('validate', { output: passing() });
    const orchestrator = orchestratorOver(ws.host, steps);
    steps.onStart('validate', (input) => orchestrator.store.journal.applyEdits(input.stateId, input.edits));
    const stream = new StateStream(
      orchestrator.execute(
        'Add X',
        workflow({ workspaceRoot: ws.dir, approval: { plan: 'never', diffs: 'never' } }),
        AbortSignal.timeout(15_000),
      ),
    );
    assert.equal((await stream.rest()).at(-1), 'SUCCESS');
    return stream.runId;
  }

  async function connect(): Promise<void> {
    const server = createIronbeesMcpServer({
      host: ws.host,
      version: 'test',
      orchestrator: async () => {
        throw new Error('no model in this test');
      },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
  }

  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const textOf = (result: CallToolResult): string => (result.content[0] as { text: string }).text;

  it('lists the checkpoints with their tests, rewinds to iteration 1, and refuses a person’s edit unless force', async () => {
    const runId = await twoIterations();
    await connect();
    const listed = await call('list_checkpoints', { runId });
    assert.ok(!listed.isError, textOf(listed));
    const { checkpoints } = JSON.parse(textOf(listed)) as {
      checkpoints: Array<{ id: string; label: string; tests: unknown; green: boolean }>;
    };
    assert.deepEqual(
      checkpoints.map((c) => [c.id, c.label, c.tests, c.green]),
      [
        ['c1', 'plan approved', { total: 2, passed: 1, failed: 1 }, false],
        ['c2', 'iteration 1: tests failed', { total: 2, passed: 1, failed: 1 }, false],
        ['c3', 'iteration 2: passed', { total: 2, passed: 2, failed: 0 }, true],
      ],
    );

    const rewound = await call('rewind', { runId, checkpoint: 'iteration:1' });
    assert.ok(!rewound.isError, textOf(rewound));
    assert.deepEqual(JSON.parse(textOf(rewound)), {
      runId,
      checkpoint: 'c2',
      label: 'iteration 1: tests failed',
      restored: ['src/A.cs'],
      deleted: [],
      currentNode: 'WAIT_HUMAN',
    });
    assert.equal(ws.read('src/A.cs')?.toString('utf8'), V1);
    assert.equal(ws.state(runId).codingState.currentNode, 'WAIT_HUMAN');

    ws.write('src/A.cs', 'class A { int Mine; }\n');
    const refused = await call('rewind', { runId, checkpoint: 'last-green' });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /^\[Forbidden\] src\/A\.cs changed since run /);
    assert.equal(ws.read('src/A.cs')?.toString('utf8'), 'class A { int Mine; }\n');
    const forced = await call('rewind', { runId, checkpoint: 'last-green', force: true });
    assert.ok(!forced.isError, textOf(forced));
    assert.equal(ws.read('src/A.cs')?.toString('utf8'), V2);
  });
});
