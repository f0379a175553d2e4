// The coordination files are read, changed and written whole while agents call in at the same time
// (several HTTP sessions, each with its own store, over the same workspace): no update may be lost.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CoordinationStore } from '../../../src/mcp-server/coordination-store';
import type { CoordinationMessage } from '../../../src/mcp-server/coordination-store';
import { createNodeHost } from '../../../src/host/node';

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function help(index: number): CoordinationMessage {
  return { id: `m${index}`, at: new Date(0).toISOString(), from: `agent-${index}`, to: 'human', type: 'help', content: `stuck ${index}` };
}

describe('CoordinationStore under concurrent calls', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-coordination-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps every heartbeat of many agents sent at once through two stores', async () => {
    const stores = [
      new CoordinationStore(createNodeHost(dir, { logger: quiet })),
      new CoordinationStore(createNodeHost(dir, { logger: quiet })),
    ];
    const agents = Array.from({ length: 40 }, (_, index) => `agent-${index}`);
    await Promise.all(
      agents.flatMap((agent, index) => [
        stores[index % 2].updateAgent('run-1', agent, (record) => ({ ...record, status: 'working', lastHeartbeat: 'first' })),
        stores[(index + 1) % 2].updateAgent('run-1', agent, (record) => ({ ...record, artifacts: [...record.artifacts, `${agent}.cs`] })),
      ]),
    );
    const all = await stores[0].agents('run-1');
    assert.deepEqual(Object.keys(all).sort(), [...agents].sort());
    for (const agent of agents) assert.deepEqual(all[agent].artifacts, [`${agent}.cs`], `${agent} kept both of its updates`);
    const file = path.join(stores[0].dir('run-1'), 'agents.json');
    assert.doesNotThrow(() => JSON.parse(fs.readFileSync(file, 'utf8')), 'the file on disk is whole');
  });

  it('keeps every escalation sent at once, and a clear never brings cleared ones back', async () => {
    const stores = [
      new CoordinationStore(createNodeHost(dir, { logger: quiet })),
      new CoordinationStore(createNodeHost(dir, { logger: quiet })),
    ];
    await Promise.all(Array.from({ length: 30 }, (_, index) => stores[index % 2].escalate('run-2', help(index))));
    assert.equal((await stores[0].escalations('run-2')).length, 30);
    const late = Array.from({ length: 10 }, (_, index) => help(100 + index));
    const clear = stores[1].clearEscalations('run-2');
    await Promise.all([clear, ...late.map((message, index) => stores[index % 2].escalate('run-2', message))]);
    const open = (await stores[0].escalations('run-2')).map((message) => message.id).sort();
    assert.deepEqual(open, late.map((message) => message.id).sort(), 'only the escalations sent after the clear are open');
  });
});
