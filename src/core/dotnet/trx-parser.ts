// Reads Visual Studio test result files (TRX, written by `dotnet test --logger trx`) into TestResult.
// The reading itself streams (trx-reader.ts): a TRX file is taken in pieces, never held whole.

import type { TestResult } from '../model';
import { MAX_STACK_LINES, TrxReader } from './trx-reader';
import type { TrxRun } from './trx-reader';

export { MAX_STACK_LINES };
export type { TestOutcomeKind, TrxRun } from './trx-reader';

/** How much of a TRX file is decoded and parsed at a time. */
const CHUNK_BYTES = 64 * 1024;

export function trimStackTrace(stackTrace: string, maxLines: number = MAX_STACK_LINES): string {
  const lines = stackTrace
    .replace(/\r\n/g, '\n')
    .split('\n')
    .filter((line) => line.trim() !== '');
  if (lines.length <= maxLines) return lines.join('\n');
  return [...lines.slice(0, maxLines), `   … ${lines.length - maxLines} more frames`].join('\n');
}

/**
 * Parses one TRX document. `sourceName` names the run in run-level failures (e.g. the test project).
 * Throws when the text is not a TRX document at all.
 */
export function parseTrx(xml: string, sourceName = 'tests'): TestResult {
  return readTrxRun(xml, sourceName).result;
}

export function readTrxRun(xml: string, sourceName = 'tests'): TrxRun {
  const reader = new TrxReader(sourceName);
  reader.write(xml);
  return reader.finish();
}

/** Reads a TRX document from its bytes as they come (a file read in pieces); throws as readTrxRun does. */
export async function readTrxChunks(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, sourceName = 'tests'): Promise<TrxRun> {
  const reader = new TrxReader(sourceName);
  const decoder = new TextDecoder();
  for await (const chunk of chunks) reader.write(decoder.decode(chunk, { stream: true }));
  reader.write(decoder.decode());
  return reader.finish();
}

/** Bytes already in memory, handed on in pieces so that no text of the whole document is made. */
export function* piecesOf(bytes: Uint8Array, size = CHUNK_BYTES): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** One result for several test projects (one TRX each). Durations add up; the caller may set wall time. */
export function mergeTestResults(results: readonly TestResult[]): TestResult {
  const merged: TestResult = { success: true, total: 0, passed: 0, failed: 0, skipped: 0, failures: [], durationMs: 0 };
  for (const result of results) {
    merged.success &&= result.success;
    merged.total += result.total;
    merged.passed += result.passed;
    merged.failed += result.failed;
    merged.skipped += result.skipped;
    merged.failures.push(...result.failures);
    merged.durationMs += result.durationMs;
    if (result.timedOut) merged.timedOut = true;
  }
  const tails = results.map((result) => result.outputTail).filter((tail): tail is string => Boolean(tail));
  if (tails.length > 0) merged.outputTail = tails.join('\n');
  const skippedFrameworks = results.flatMap((result) => result.skippedFrameworks ?? []);
  if (skippedFrameworks.length > 0) merged.skippedFrameworks = skippedFrameworks;
  return merged;
}
