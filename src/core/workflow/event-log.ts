// The trace file of a run (events.jsonl): one JSON line per event, each with a sequence number
// (`seq`, 1, 2, 3, … per run) and written in the order the events were recorded.
//
// Why a queue: trace sinks fire and forget (a step must not wait for its trace), so many appends
// to the same file can be in flight at once, and concurrent appends land in whatever order the
// file system finishes them. Here the appends of one file run one after another, in the order the
// events were recorded, so line order = seq order = recording order, and none is lost. The events
// recorded while a write is in flight go out together in the next one: a model turn records three
// or four at once, and one append each kept the file system busy between the steps.
// The queues are shared by every RunStore of the process (the orchestrator's and the MCP
// server's), keyed by the file, so two writers of the same run never race either.

import type { FileAppender, Host } from '../host';
import type { TraceEvent } from '../trace';

/** One line of events.jsonl as written: the event with its sequence number first. */
export type TraceLine = { seq: number } & TraceEvent;

interface QueuedLine {
  event: TraceEvent;
  written: () => void;
  failed: (error: unknown) => void;
}

interface FileQueue {
  /** The last seq written; null until the existing file was read (on resume it continues). */
  lastSeq: number | null;
  /** Recorded and not yet handed to the file system, in order. */
  waiting: QueuedLine[];
  /** Whether a write of this file is in flight (the next batch waits for it). */
  writing: boolean;
  /** Holders (holdTraceFile) keeping the queue, and so its last seq, between appends. */
  held: number;
  /** While held, the file kept open where the host can (one write per batch); null when it cannot. */
  appender: Promise<FileAppender | null> | null;
}

const queues = new Map<string, FileQueue>();
const DECODER = new TextDecoder();

/** The seq to continue from: the last line's seq, or the count of lines for a file written before seq existed. */
export function lastSeqOf(text: string): number {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const last = lines.at(-1);
  if (last === undefined) return 0;
  try {
    const seq = (JSON.parse(last) as { seq?: unknown }).seq;
    if (typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= lines.length) return seq;
  } catch {
    // A torn last line (a crash mid-append): count it, the next line still gets a fresh number.
  }
  return lines.length;
}

/**
 * Appends `event` to `file` after every earlier append to it, numbered one past the last line.
 * The returned promise settles when this line is written; a failed write does not block the next.
 */
export function appendTraceLine(host: Host, file: string, event: TraceEvent): Promise<void> {
  const q = queueOf(file);
  const written = new Promise<void>((resolve, reject) => q.waiting.push({ event, written: resolve, failed: reject }));
  if (!q.writing) void drain(host, file, q);
  return written;
}

/** Writes what waits, a batch at a time, until nothing does; then drops the queue unless it is held. */
async function drain(host: Host, file: string, q: FileQueue): Promise<void> {
  q.writing = true;
  while (q.waiting.length > 0) {
    const batch = q.waiting.splice(0);
    try {
      await writeLines(host, file, q, batch);
      for (const line of batch) line.written();
    } catch (error) {
      if (batch.length === 1) batch[0].failed(error);
      // One line at a time again, so only a line that cannot be written fails (and takes no number).
      else for (const line of batch) await writeLines(host, file, q, [line]).then(line.written, line.failed);
    }
  }
  q.writing = false;
  dropIfIdle(file, q);
}

/** One append of `batch`, numbered on from the last line; the numbers count only once written, so a failed write leaves no gap. */
async function writeLines(host: Host, file: string, q: FileQueue, batch: readonly QueuedLine[]): Promise<void> {
  if (q.lastSeq === null) {
    const bytes = await host.fs.readFile(file);
    q.lastSeq = bytes ? lastSeqOf(DECODER.decode(bytes)) : 0;
  }
  const first = q.lastSeq + 1;
  const text = batch.map((line, i) => `${JSON.stringify({ seq: first + i, ...line.event } satisfies TraceLine)}\n`).join('');
  const appender = q.held > 0 ? await appenderOf(host, file, q) : null;
  if (appender) {
    try {
      await appender.append(text);
    } catch (error) {
      // Not kept after a failure: the next write opens the file again.
      closeAppender(q);
      throw error;
    }
  } else {
    await host.fs.appendFile(file, text);
  }
  q.lastSeq = first + batch.length - 1;
}

function appenderOf(host: Host, file: string, q: FileQueue): Promise<FileAppender | null> {
  q.appender ??= host.fs.openAppender ? host.fs.openAppender(file).catch(() => null) : Promise.resolve(null);
  return q.appender;
}

function closeAppender(q: FileQueue): void {
  const appender = q.appender;
  q.appender = null;
  void appender?.then((open) => open?.close()).catch(() => undefined);
}

/**
 * Keeps `file`'s queue, and so its last seq, between appends until the returned function is called.
 * For the run this process drives: it holds the run's lock, so no other process appends to its trace,
 * and each event is written at once instead of after reading the whole file again for its number.
 * Where the host can, the file stays open meanwhile (one write per batch, not an open and a close too).
 */
export function holdTraceFile(file: string): () => void {
  const q = queueOf(file);
  q.held += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    q.held -= 1;
    dropIfIdle(file, q);
  };
}

function queueOf(file: string): FileQueue {
  let queue = queues.get(file);
  if (!queue) {
    queue = { lastSeq: null, waiting: [], writing: false, held: 0, appender: null };
    queues.set(file, queue);
  }
  return queue;
}

/**
 * Every run has its own file: a queue kept after its last write and its holder would be kept for the
 * life of the process (found by the load bench: one per run, forever).
 */
function dropIfIdle(file: string, q: FileQueue): void {
  if (q.writing || q.waiting.length > 0 || q.held > 0) return;
  closeAppender(q);
  if (queues.get(file) === q) queues.delete(file);
}

/** Whether the process still keeps a queue for `file` (for tests: not once its writes have settled). */
export function traceQueueOpen(file: string): boolean {
  return queues.has(file);
}
