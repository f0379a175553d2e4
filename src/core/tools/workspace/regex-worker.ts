// The model's regular expressions run in a worker thread, never on the run's own thread: JavaScript's
// backtracking engine can take exponential time (`(a+)+$` on a line of `a`s), and a synchronous
// match cannot be interrupted. A worker can: it is terminated at the time limit or when the call
// is aborted, and the search answers with an error that says why.
// The worker's source is a string evaluated by node:worker_threads, so it needs no separate file in
// the CLI and extension bundles. node:worker_threads itself is loaded by the first
// search with a pattern, not by every start (test/unit/cli/lazy-load.test.ts).

export interface RegexFile {
  path: string;
  text: string;
}

export interface RegexHit {
  path: string;
  /** 1-based. */
  line: number;
  text: string;
}

export interface RegexSearchResult {
  hits: RegexHit[];
  /** Every matching line, including those beyond `max`. */
  total: number;
}

export type RegexSearchOutcome = RegexSearchResult | { stopped: 'time-limit' | 'aborted' | 'failed'; message: string };

/** Lines split as text-view.ts splitLines does: LF, one trailing newline ignored; the text is already LF. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData.pattern, workerData.flags);
const hits = [];
let total = 0;
for (const file of workerData.files) {
  if (file.text === '') continue;
  const body = file.text.endsWith('\\n') ? file.text.slice(0, -1) : file.text;
  const lines = body.split('\\n');
  for (let i = 0; i < lines.length; i++) {
    if (!regex.test(lines[i])) continue;
    total++;
    if (hits.length < workerData.max) hits.push({ path: file.path, line: i + 1, text: lines[i] });
  }
}
parentPort.postMessage({ hits, total });
`;

let running = 0;

/** Workers alive right now: a stopped search must leave none behind (a test checks the work stops, not only the wait). */
export function runningRegexWorkers(): number {
  return running;
}

export interface RegexSearchOptions {
  max: number;
  timeLimitMs: number;
  signal?: AbortSignal;
}

/** Matches every line of `files` against the pattern in a worker that is terminated after `timeLimitMs`. */
export function searchLinesInWorker(
  pattern: string,
  flags: string,
  files: readonly RegexFile[],
  options: RegexSearchOptions,
): Promise<RegexSearchOutcome> {
  return new Promise((resolve) => {
    if (options.signal?.aborted) {
      resolve({ stopped: 'aborted', message: 'The search was stopped before it started.' });
      return;
    }
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pattern, flags, files, max: options.max } });
    running++;
    worker.once('exit', () => running--);
    let settled = false;
    const finish = (outcome: RegexSearchOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      // Terminating stops a match that is still running; the thread's memory goes with it.
      void worker.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish({ stopped: 'time-limit', message: 'it did not finish within the time limit' }),
      options.timeLimitMs,
    );
    const onAbort = (): void => finish({ stopped: 'aborted', message: 'the search was stopped' });
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (result: RegexSearchResult) => finish(result));
    worker.once('error', (error: Error) => finish({ stopped: 'failed', message: error.message }));
    worker.once('exit', (code) => finish({ stopped: 'failed', message: `the search worker exited with code ${code}` }));
  });
}
