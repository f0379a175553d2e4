// Load and soak (issue 15, item 8): whole scripted runs through the real orchestrator on in-memory
// workspaces (no dotnet; see test/support/load-runs.ts).
//   1. 1,000 runs at once: every one must reach SUCCESS; peak RSS and heap are sampled at every transition.
//   2. 10,000 runs one after another: heap (after a full GC) and the count of active resources
//      (`process.getActiveResourcesInfo().length`) at the start, the middle and the end.
// It stops by itself: each part has a time limit (IRONBEES_LOAD_LIMIT_S, default 1200 s each), and a
// part that hits it is reported as such and fails the bench. Exit 1 on any error, on growth of the
// active resources, or on heap growth past 25 %.
// Run: npm run bench:load   (IRONBEES_LOAD_CONCURRENT / IRONBEES_LOAD_SEQUENTIAL change the counts).

import { concurrentRuns, prepareLoad, runProblem, sampleResources, scriptedRun, workspaceFolder } from '../test/support/load-runs';
import type { ResourceSample } from '../test/support/load-runs';

const CONCURRENT = Number(process.env.IRONBEES_LOAD_CONCURRENT ?? 1000);
const SEQUENTIAL = Number(process.env.IRONBEES_LOAD_SEQUENTIAL ?? 10_000);
const LIMIT_MS = Number(process.env.IRONBEES_LOAD_LIMIT_S ?? 1200) * 1000;
const WARM_UP = 20;
/** Heap may wander with the collector; more than this is growth. */
const HEAP_GROWTH_LIMIT = 1.25;

function line(text: string): void {
  process.stdout.write(`${text}\n`);
}

function describe(sample: ResourceSample): string {
  return `heap ${sample.heapUsedMb} MB, RSS ${sample.rssMb} MB, active resources ${sample.activeResources}`;
}

async function main(): Promise<number> {
  if (!(globalThis as { gc?: unknown }).gc)
    line('note: run with --expose-gc (npm run bench:load does) for heap figures after a full collection');
  const fixture = await prepareLoad();
  let failures = 0;
  try {
    // 1. Concurrent.
    const before = sampleResources();
    let peakRss = 0;
    let peakHeap = 0;
    const peak = (): void => {
      const memory = process.memoryUsage();
      peakRss = Math.max(peakRss, memory.rss);
      peakHeap = Math.max(peakHeap, memory.heapUsed);
    };
    line(`${CONCURRENT} concurrent runs… (before: ${describe(before)})`);
    const timedOut = Symbol('timed out');
    let limit: NodeJS.Timeout | undefined;
    const concurrent = await Promise.race([
      concurrentRuns(fixture, CONCURRENT, peak),
      new Promise<typeof timedOut>((resolve) => (limit = setTimeout(() => resolve(timedOut), LIMIT_MS))),
    ]);
    clearTimeout(limit);
    if (concurrent === timedOut) {
      line(`  FAILED: not done after ${LIMIT_MS / 1000} s`);
      return 1;
    }
    const after = sampleResources();
    line(
      `  ${CONCURRENT - concurrent.problems.length}/${CONCURRENT} reached SUCCESS in ${(concurrent.durationMs / 1000).toFixed(1)} s (${(concurrent.durationMs / CONCURRENT).toFixed(1)} ms per run amortised)`,
    );
    line(
      `  peak RSS ${(peakRss / 1024 / 1024).toFixed(1)} MB, peak heap ${(peakHeap / 1024 / 1024).toFixed(1)} MB; after: ${describe(after)}`,
    );
    for (const problem of concurrent.problems.slice(0, 10)) line(`  error: ${problem}`);
    if (concurrent.problems.length) failures += 1;

    // 2. Sequential.
    const folder = workspaceFolder(fixture, 'sequential');
    for (let i = 0; i < WARM_UP; i += 1) await scriptedRun(fixture, folder);
    const samples: Array<{ at: number; sample: ResourceSample }> = [{ at: 0, sample: sampleResources() }];
    line(`${SEQUENTIAL} sequential runs… (start: ${describe(samples[0].sample)})`);
    const started = Date.now();
    const problems: string[] = [];
    let done = 0;
    for (; done < SEQUENTIAL; done += 1) {
      if (Date.now() - started > LIMIT_MS) break;
      const problem = runProblem(await scriptedRun(fixture, folder));
      if (problem) problems.push(problem);
      if (done + 1 === Math.floor(SEQUENTIAL / 2)) samples.push({ at: done + 1, sample: sampleResources() });
    }
    samples.push({ at: done, sample: sampleResources() });
    const seconds = (Date.now() - started) / 1000;
    line(
      `  ${done - problems.length}/${done} reached SUCCESS in ${seconds.toFixed(1)} s (${((seconds / Math.max(done, 1)) * 1000).toFixed(2)} ms per run)`,
    );
    for (const { at, sample } of samples) line(`  after ${at} runs: ${describe(sample)}`);
    for (const problem of problems.slice(0, 10)) line(`  error: ${problem}`);
    const first = samples[0].sample;
    const last = samples[samples.length - 1].sample;
    if (done < SEQUENTIAL) {
      line(`  FAILED: only ${done} of ${SEQUENTIAL} runs within ${LIMIT_MS / 1000} s`);
      failures += 1;
    }
    if (problems.length) failures += 1;
    if (last.activeResources > first.activeResources) {
      line(
        `  FAILED: active resources grew (${first.activeResources} → ${last.activeResources}): ${process.getActiveResourcesInfo().join(', ')}`,
      );
      failures += 1;
    }
    if (last.heapUsedMb > first.heapUsedMb * HEAP_GROWTH_LIMIT) {
      line(`  FAILED: heap grew from ${first.heapUsedMb} MB to ${last.heapUsedMb} MB`);
      failures += 1;
    }
  } finally {
    fixture.dispose();
  }
  line(failures ? `load bench: ${failures} check(s) FAILED` : 'load bench: all checks passed');
  return failures ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
