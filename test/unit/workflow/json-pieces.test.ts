// A validation's full results are written in pieces (jsonPieces + the host's writeChunks), never as one
// string: the text must be exactly JSON.stringify's, and a host that can take pieces must get small ones.

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { ValidationOutcome } from '../../../src/core/dotnet/validator';
import type { TestFailure } from '../../../src/core/model';
import { jsonPieces } from '../../../src/core/workflow/json-pieces';
import { RunStore } from '../../../src/core/workflow/store';
import { saveBaselineResults, saveValidationResults } from '../../../src/core/workflow/validation-results';
import { createMemoryHost } from '../../support/memory-host';
import { generatedFailures } from '../../support/many-failures';

const PIECE_CHARS = 16 * 1024;

function failures(count: number): TestFailure[] {
  return generatedFailures('/ws', count).map(({ name, message, stackTrace }) => ({
    testName: name,
    message,
    stackTrace: `${stackTrace}\n   … 3 frames`,
  }));
}

function outcomeWith(failed: TestFailure[]): ValidationOutcome {
  return {
    build: { success: true, errors: [], warnings: [], durationMs: 12, outputTail: undefined },
    test: { success: false, total: failed.length + 1, passed: 1, failed: failed.length, skipped: 0, failures: failed, durationMs: 40 },
    passed: false,
    newBuildErrors: [],
    newTestFailures: failed,
    preExistingFailures: [],
    fixedFailures: [],
    toleratedFailures: [],
  };
}

describe('jsonPieces', () => {
  it("gives exactly JSON.stringify's text for plain data and its edge cases", () => {
    const values: unknown[] = [
      { a: 1, skipped: undefined, f: () => 1, s: Symbol('x'), nested: { list: [1, undefined, () => 2, null, 'x'], empty: {}, none: [] } },
      {
        date: new Date(Date.UTC(2026, 10, 25, 22, 0, 0)),
        boxed: [new String('s'), new Number(-0), new Boolean(false)],
        numbers: [NaN, Infinity, -0, 1e21, 0.1],
      },
      {
        text: 'quote " backslash \\ newline \n tab \t nul \u0000 line-sep \u2028 lone \ud800 emoji 🐝 ellipsis …',
        '"key"': true,
        '': 'empty key',
      },
      { custom: { toJSON: (key: string) => ({ key, inner: [1, 2] }) } },
      [[[]], [{}], 'end'],
      'top-level string',
      42,
      null,
    ];
    for (const value of values) assert.equal([...jsonPieces(value)].join(''), JSON.stringify(value));
    assert.deepEqual([...jsonPieces(undefined)], [], 'JSON.stringify(undefined) is no text at all');
  });

  it('hands 500 failures on in pieces of about 16 K characters, together exactly the whole text', () => {
    const failed = failures(500);
    const value = { iteration: 1, ...outcomeWith(failed) };
    const pieces = [...jsonPieces(value)];
    const whole = JSON.stringify(value);
    assert.equal(pieces.join(''), whole);
    assert.ok(whole.length > 3_000_000, `${whole.length} characters`);
    assert.ok(pieces.length >= whole.length / (PIECE_CHARS + 10_000), `${pieces.length} pieces`);
    // A piece closes once it reaches 16 K characters; the part that takes it over is one failure's field at most.
    const longestPart = Math.max(...failed.flatMap((failure) => [failure.message.length, failure.stackTrace.length])) + 100;
    for (const piece of pieces) assert.ok(piece.length < PIECE_CHARS + longestPart, `a piece of ${piece.length} characters`);
  });
});

describe('full results written in pieces', () => {
  it('writes the validation and the baseline through writeChunks when the host has it, the same JSON', async () => {
    const memory = createMemoryHost({});
    const calls: Array<{ file: string; pieces: number; longest: number }> = [];
    const host = {
      ...memory,
      fs: {
        ...memory.fs,
        async writeChunks(abs: string, pieces: Iterable<string>) {
          const all = [...pieces];
          calls.push({ file: path.basename(abs), pieces: all.length, longest: Math.max(...all.map((piece) => piece.length)) });
          await memory.fs.writeFile(abs, all.join(''));
        },
      },
    };
    const store = new RunStore(host);
    const failed = failures(500);
    const outcome = outcomeWith(failed);
    const stored = await saveValidationResults(host, store, 'r1', 1, outcome, null);
    await saveBaselineResults(host, store, 'r1', { build: outcome.build, test: outcome.test, capturedAt: '2026-11-25T22:00:00.000Z' });

    assert.deepEqual(
      calls.map((call) => call.file),
      ['1.json', 'baseline.json'],
    );
    for (const call of calls) {
      assert.ok(call.pieces > 100, `${call.file}: ${call.pieces} pieces`);
      assert.ok(call.longest < 32 * 1024, `${call.file}: longest piece ${call.longest}`);
    }
    const written = memory.files.get('.ironbees/runs/r1/validations/1.json') ?? '';
    assert.equal(written, JSON.stringify({ iteration: 1, ...outcome, newTestFailures: failed.map((failure) => failure.testName) }));
    assert.equal(stored.test?.resultsFile, '.ironbees/runs/r1/validations/1.json');
  });
});
