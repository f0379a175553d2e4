import { strict as assert } from 'node:assert';
import type { Host, HostFileSystem } from '../../../src/core/host';
import { appendTraceLine, lastSeqOf, traceQueueOpen } from '../../../src/core/workflow/event-log';
import type { TraceLine } from '../../../src/core/workflow/event-log';
import { RunStore } from '../../../src/core/workflow/store';
import { TempWorkspace } from './temp-workspace';

/**
 * The workspace's host with appends that finish after a varying delay (seeded), the way a loaded
 * disk finishes concurrent writes: without the per-run queue the lines would land out of order.
 */
function jitteryHost(host: Host, failOn?: (text: string) => boolean): Host {
  let seed = 7;
  const nextDelay = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % 4;
  };
  const inner = host.fs;
  const fs: HostFileSystem = {
    readFile: (p) => inner.readFile(p),
    writeFile: (p, d) => inner.writeFile(p, d),
    deleteFile: (p) => inner.deleteFile(p),
    exists: (p) => inner.exists(p),
    listFiles: (p, o) => inner.listFiles(p, o),
    appendFile: async (p, text) => {
      await new Promise((resolve) => setTimeout(resolve, nextDelay()));
      if (failOn?.(text)) throw new Error('disk full');
      await inner.appendFile(p, text);
    },
  };
  return { ...host, fs };
}

const lines = (ws: TempWorkspace, runId: string): TraceLine[] =>
  (ws.runFile(runId, 'events.jsonl') ?? '')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as TraceLine);

const event = (i: number) => ({
  kind: 'error' as const,
  at: new Date(Date.UTC(2025, 0, 1, 0, 0, 0, i)).toISOString(),
  message: `event ${i}`,
});

describe('events.jsonl: numbered lines in the order they were recorded', () => {
  let ws: TempWorkspace;
  beforeEach(() => (ws = new TempWorkspace()));
  afterEach(() => ws.remove());

  it('keeps 400 concurrent fire-and-forget writes from two stores in order, seq 1..400, none lost', async () => {
    const host = jitteryHost(ws.host);
    // The orchestrator's store and the MCP server's store write the same run.
    const stores = [new RunStore(host), new RunStore(host)];
    const writes = Array.from({ length: 400 }, (_, i) => stores[i % 2].appendEvent('r1', event(i)));
    await Promise.all(writes);
    const written = lines(ws, 'r1');
    assert.equal(written.length, 400);
    assert.deepEqual(
      written.map((l) => l.seq),
      Array.from({ length: 400 }, (_, i) => i + 1),
    );
    assert.deepEqual(
      written.map((l) => (l.kind === 'error' ? l.message : l.kind)),
      Array.from({ length: 400 }, (_, i) => `event ${i}`),
    );
    const times = written.map((l) => l.at);
    assert.deepEqual(times, [...times].sort(), 'the at times never go backwards');
    // seq is the first key of each line, so a reader sees it at a glance.
    assert.match(ws.runFile('r1', 'events.jsonl')!.split('\n')[0], /^\{"seq":1,"kind":"error",/);
  });

  it('continues the numbering of a resumed run, and of a trace written before lines had a seq', async () => {
    ws.write('.ironbees/runs/r2/events.jsonl', '{"seq":1,"kind":"error"}\n{"seq":2,"kind":"error"}\n{"seq":3,"kind":"error"}\n');
    ws.write('.ironbees/runs/r3/events.jsonl', '{"kind":"error"}\n{"kind":"error"}\n');
    const store = new RunStore(ws.host);
    await Promise.all([store.appendEvent('r2', event(0)), store.appendEvent('r3', event(0)), store.appendEvent('r2', event(1))]);
    assert.deepEqual(
      lines(ws, 'r2').map((l) => l.seq),
      [1, 2, 3, 4, 5],
    );
    assert.deepEqual(
      lines(ws, 'r3').map((l) => l.seq),
      [undefined, undefined, 3],
    );
  });

  it('keeps no queue for a file once its writes have settled, and a later write still continues the numbering', async () => {
    const host = jitteryHost(ws.host);
    const store = new RunStore(host);
    const file = store.runDir('r5') + '/events.jsonl';
    const first = [0, 1, 2].map((i) => store.appendEvent('r5', event(i)));
    assert.equal(traceQueueOpen(file), true, 'open while writes are in flight');
    await Promise.all(first);
    await new Promise((resolve) => setImmediate(resolve));
    // One queue per run, kept forever, grew the heap of a long-lived process run after run.
    assert.equal(traceQueueOpen(file), false);
    await store.appendEvent('r5', event(3));
    assert.deepEqual(
      lines(ws, 'r5').map((l) => l.seq),
      [1, 2, 3, 4],
    );
  });

  it('while the run is held (driven here), one event after another is numbered without reading the file again; released, no queue stays', async () => {
    let reads = 0;
    const inner = ws.host.fs;
    const counting: HostFileSystem = Object.assign(Object.create(inner) as HostFileSystem, {
      readFile: (p: string) => ((reads += 1), inner.readFile(p)),
    });
    const host: Host = { ...ws.host, fs: counting };
    ws.write('.ironbees/runs/r6/events.jsonl', '{"seq":1,"kind":"error"}\n');
    const store = new RunStore(host);
    const file = store.runDir('r6') + '/events.jsonl';
    const release = store.holdEvents('r6');
    // One at a time, as a run records them: each append settles before the next.
    for (const i of [0, 1, 2, 3]) await store.appendEvent('r6', event(i));
    assert.equal(reads, 1, 'the file is read once, for the seq to continue from');
    assert.equal(traceQueueOpen(file), true);
    release();
    release(); // twice is once
    assert.equal(traceQueueOpen(file), false);
    await store.appendEvent('r6', event(4));
    assert.equal(reads, 2, 'not held: the next append reads the file again');
    assert.deepEqual(
      lines(ws, 'r6').map((l) => l.seq),
      [1, 2, 3, 4, 5, 6],
    );
    assert.equal(traceQueueOpen(file), false);
  });

  it('writes the events recorded while a write is in flight together, in one append, in order', async () => {
    const appends: string[][] = [];
    const inner = ws.host.fs;
    const counting: HostFileSystem = Object.assign(Object.create(inner) as HostFileSystem, {
      appendFile: (p: string, text: string) => (
        appends.push(
          text
            .trimEnd()
            .split('\n')
            .map((l) => (JSON.parse(l) as { message: string }).message),
        ),
        inner.appendFile(p, text)
      ),
    });
    const store = new RunStore({ ...ws.host, fs: counting });
    // A model turn: its model call, two tool calls and the turn line come at once.
    await Promise.all([0, 1, 2, 3].map((i) => store.appendEvent('r7', event(i))));
    await store.appendEvent('r7', event(4));
    assert.deepEqual(appends, [['event 0'], ['event 1', 'event 2', 'event 3'], ['event 4']]);
    assert.deepEqual(
      lines(ws, 'r7').map((l) => [l.seq, l.kind === 'error' ? l.message : '']),
      [
        [1, 'event 0'],
        [2, 'event 1'],
        [3, 'event 2'],
        [4, 'event 3'],
        [5, 'event 4'],
      ],
    );
  });

  it('while held, keeps the file open: one write per batch, closed on release; then appends as before', async () => {
    const calls: string[] = [];
    const inner = ws.host.fs;
    const watching: HostFileSystem = Object.assign(Object.create(inner) as HostFileSystem, {
      appendFile: (p: string, text: string) => (calls.push('appendFile'), inner.appendFile(p, text)),
      openAppender: async (p: string) => {
        calls.push('open');
        const open = await inner.openAppender!(p);
        return { append: (text: string) => (calls.push('append'), open.append(text)), close: () => (calls.push('close'), open.close()) };
      },
    });
    const store = new RunStore({ ...ws.host, fs: watching });
    const release = store.holdEvents('r8');
    await store.appendEvent('r8', event(0));
    await Promise.all([1, 2, 3].map((i) => store.appendEvent('r8', event(i))));
    await store.appendEvent('r8', event(4));
    // Opened once; event 0, event 1, events 2 and 3 (recorded while 1 was written), event 4.
    assert.deepEqual(calls, ['open', 'append', 'append', 'append', 'append']);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(calls.slice(5), ['close']);
    await store.appendEvent('r8', event(5));
    assert.deepEqual(calls.slice(6), ['appendFile']);
    assert.deepEqual(
      lines(ws, 'r8').map((l) => [l.seq, l.kind === 'error' ? l.message : '']),
      [0, 1, 2, 3, 4, 5].map((i) => [i + 1, `event ${i}`]),
    );
  });

  it('reads the seq to continue from: last line, torn last line, empty file', () => {
    assert.equal(lastSeqOf(''), 0);
    assert.equal(lastSeqOf('{"seq":9}\n{"seq":10}\n'), 10);
    assert.equal(lastSeqOf('{"seq":1}\n{"seq":2}\n{"se'), 3);
    assert.equal(lastSeqOf('{"kind":"error"}\n\n{"kind":"error"}\n'), 2);
  });

  it('leaves no gap and blocks nothing when one write fails', async () => {
    const host = jitteryHost(ws.host, (text) => text.includes('event 2"'));
    const file = new RunStore(host).runDir('r4') + '/events.jsonl';
    const results = await Promise.allSettled([0, 1, 2, 3].map((i) => appendTraceLine(host, file, event(i))));
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(
      lines(ws, 'r4').map((l) => [l.seq, l.kind === 'error' ? l.message : '']),
      [
        [1, 'event 0'],
        [2, 'event 1'],
        [3, 'event 3'],
      ],
    );
  });
});
