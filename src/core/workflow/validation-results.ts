// Full validation results, stored once per validation in the run folder:
// `.ironbees/runs/<runId>/validations/baseline.json` (a Baseline) and `<iteration>.json` (the validation
// outcome: build, test with every failure, and the names of the new, pre-existing, fixed, tolerated ones). The saved state carries
// a capped copy (dotnet/stored-results.ts) with a pointer here; whatever needs every failure (comparing
// with the baseline) reads it back from these files.

import * as path from 'node:path';
import type { Host } from '../host';
import type { Baseline, ErrorContext, TestResult } from '../model';
import type { ValidationOutcome } from '../dotnet/validator';
import { storedBaseline, storedErrorContext, storedTestResult } from '../dotnet/stored-results';
import { errorMessage } from '../errors';
import { jsonPieces } from './json-pieces';
import { redactDeep } from '../redact';
import type { RunStore } from './store';

const TEXT_DECODER = new TextDecoder();

/** The run's baseline in full, as written at INIT (a phase run in a worktree of its own compares with it). */
export function baselineFile(store: RunStore, runId: string): string {
  return resultsPath(store, runId, 'baseline');
}

/** A baseline written by another run (baselineFile), read back whole; null when it cannot be read. */
export async function readBaselineFile(host: Host, file: string): Promise<Baseline | null> {
  try {
    const bytes = await host.fs.readFile(file);
    return bytes === null ? null : (JSON.parse(TEXT_DECODER.decode(bytes)) as Baseline);
  } catch {
    return null;
  }
}

function resultsPath(store: RunStore, runId: string, name: string): string {
  return path.join(store.runDir(runId), 'validations', `${name}.json`);
}

/**
 * Written in pieces where the host can: the full results of 500 failures are never one string.
 * Redacted first: a test's output may print a credential.
 */
async function writeJson(host: Host, file: string, value: unknown): Promise<void> {
  const safe = redactDeep(value);
  if (host.fs.writeChunks) await host.fs.writeChunks(file, jsonPieces(safe));
  else await host.fs.writeFile(file, JSON.stringify(safe));
}

function workspaceRelative(host: Host, abs: string): string {
  return path.relative(host.workspaceRoot, abs).split(path.sep).join('/');
}

/** Writes the baseline in full; returns what the state keeps of it. */
export async function saveBaselineResults(host: Host, store: RunStore, runId: string, baseline: Baseline): Promise<Baseline> {
  const file = resultsPath(store, runId, 'baseline');
  await writeJson(host, file, baseline);
  return storedBaseline(baseline, workspaceRelative(host, file));
}

/**
 * The baseline with every failure and the tests that ran, read back from its file (the state's copy
 * leaves the tests that ran out, and may leave failures out). A
 * missing or damaged file falls back to the state's copy (said in the log): fewer failures are then
 * known as pre-existing, so the comparison errs towards blaming, never towards excusing.
 */
export async function fullBaseline(host: Host, store: RunStore, runId: string, baseline: Baseline | null): Promise<Baseline | null> {
  if (!baseline?.test || baseline.ranTests) return baseline;
  const file = resultsPath(store, runId, 'baseline');
  try {
    const bytes = await host.fs.readFile(file);
    if (bytes === null) throw new Error('the file is missing');
    return JSON.parse(TEXT_DECODER.decode(bytes)) as Baseline;
  } catch (error) {
    host.logger.warn(
      `The baseline's full results (${workspaceRelative(host, file)}) could not be read (${errorMessage(error)}); comparing with the ${baseline.test.failures.length} failures the state lists.`,
    );
    return baseline;
  }
}

export interface StoredValidation {
  test: TestResult | null;
  errorContext: ErrorContext | null;
}

/** Writes one validation in full; returns what the state keeps of its test result and error context. */
export async function saveValidationResults(
  host: Host,
  store: RunStore,
  runId: string,
  iteration: number,
  outcome: ValidationOutcome,
  errorContext: ErrorContext | null,
): Promise<StoredValidation> {
  if (outcome.test === null) return { test: null, errorContext: errorContext && storedErrorContext(errorContext) };
  const file = resultsPath(store, runId, String(iteration));
  // Each failure once: the new ones are named (they are in `test.failures`, marked `preExisting: false`).
  const newTestFailures = outcome.newTestFailures.map((failure) => failure.testName);
  await writeJson(host, file, { iteration, ...outcome, newTestFailures });
  const split = { new: outcome.newTestFailures.length, still: outcome.preExistingFailures.length, fixed: outcome.fixedFailures.length };
  return {
    test: storedTestResult(outcome.test, { resultsFile: workspaceRelative(host, file), split }),
    errorContext: errorContext && storedErrorContext(errorContext),
  };
}
