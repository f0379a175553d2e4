// The TRX reader streams (saxes) instead of parsing the whole text into a tree (fast-xml-parser): it must
// read every TRX the repository has exactly as the old reader did (test/support/trx-whole-reader.ts),
// whole or in pieces of any size, and files through the host without taking their text whole.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { piecesOf, readTrxChunks, readTrxRun } from '../../../src/core/dotnet/trx-parser';
import type { TrxRun } from '../../../src/core/dotnet/trx-parser';
import { resultFromTrx, takeTrxReports } from '../../../src/core/dotnet/test-report';
import type { Host } from '../../../src/core/host';
import { createNodeHost } from '../../../src/host/node/index';
import { generatedFailures } from '../../support/many-failures';
import { readTrxRunWhole } from '../../support/trx-whole-reader';
import { trxOf } from './fake-dotnet';

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures');

function trxFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return trxFilesUnder(full);
    return name.endsWith('.trx') ? [full] : [];
  });
}

/** A TrxRun as plain data, so deepEqual compares the outcomes map in order too. */
function plain(run: TrxRun): unknown {
  return { result: run.result, outcomes: [...run.outcomes] };
}

async function readInPieces(text: string, size: number, sourceName = 'tests'): Promise<TrxRun> {
  return readTrxChunks(piecesOf(new TextEncoder().encode(text), size), sourceName);
}

const MSTEST_ROWS = `<?xml version="1.0" encoding="utf-8"?>
<TestRun id="r" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">
  <Times creation="2025-01-01T00:00:00.0000000+00:00" start="2025-01-01T00:00:01.0000000+00:00" finish="2025-01-01T00:00:03.5000000+00:00" />
  <Results>
    <UnitTestResult testId="p" testName="Add" outcome="Failed">
      <Output><ErrorInfo><Message>parent message, not counted</Message></ErrorInfo></Output>
      <InnerResults>
        <UnitTestResult testId="p" testName="Add (1,1,2)" outcome="Passed" />
        <UnitTestResult testId="p" testName="Add (2,2,5)" outcome="Failed">
          <Output><ErrorInfo><Message><![CDATA[Expected:<5>. Actual:<4> & "more"]]></Message><StackTrace>   at Calc.AddTests.Add(Int32 a) in C:\\src\\AddTests.cs:line 9\r\n   at Runner.Invoke()</StackTrace></ErrorInfo></Output>
        </UnitTestResult>
      </InnerResults>
    </UnitTestResult>
    <UnitTestResult testId="q" testName="Skips" outcome="NotExecuted" />
  </Results>
  <TestDefinitions>
    <UnitTest id="p" name="Add"><TestMethod className="Calc.AddTests" name="Add" /></UnitTest>
    <UnitTest id="q" name="Skips"><TestMethod className="Calc.AddTests" name="Skips" /></UnitTest>
  </TestDefinitions>
  <ResultSummary outcome="Failed" />
</TestRun>`;

const EDGES = `\uFEFF<?xml version="1.0" encoding="utf-8"?>
<t:TestRun xmlns:t="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><t:Results>
<t:UnitTestResult testId="a" testName="Ns.Tests.Entities(text: &quot;&lt;b&gt; &amp; é ✓&quot;)" t:outcome="Failed"><t:Output><t:ErrorInfo>
<t:Message xml:space="preserve">  Widget &lt;b&gt; &amp; "gadget" broke: <![CDATA[<raw> & ]]>done
second line ✓  </t:Message>
<t:StackTrace>   at Ns.Tests.Entities(String text) in /w/Tests.cs:line 3</t:StackTrace>
</t:ErrorInfo></t:Output></t:UnitTestResult>
<t:UnitTestResult testId="b" testName="Ns.Tests.Mixed" outcome="Error"><t:Output><t:ErrorInfo><t:Message>a<b>inner</b>c</t:Message></t:ErrorInfo></t:Output></t:UnitTestResult>
<t:UnitTestResult testId="c" testName="Ns.Tests.NoMessage" outcome="Timeout" />
<t:UnitTestResult testId="d" testName="Ns.Tests.Mixed" outcome="Passed" />
</t:Results><t:ResultSummary outcome="Failed" /></t:TestRun>`;

describe('streaming TRX reader', () => {
  const fixtures = trxFilesUnder(FIXTURES);

  it('finds the TRX fixtures it compares (xunit, MSTest, NUnit, data-driven)', () => {
    assert.ok(fixtures.length >= 11, `${fixtures.length} TRX fixtures`);
  });

  it('reads every TRX fixture exactly as the whole-text reader did, whole and in pieces of 7 bytes and 64 KB', async () => {
    for (const file of fixtures) {
      const text = readFileSync(file, 'utf8');
      const name = path.basename(file, '.trx');
      const expected = plain(readTrxRunWhole(text, name));
      assert.deepEqual(plain(readTrxRun(text, name)), expected, file);
      assert.deepEqual(plain(await readInPieces(text, 7, name)), expected, `${file} in 7-byte pieces`);
      assert.deepEqual(plain(await readInPieces(text, 64 * 1024, name)), expected, `${file} in 64 KB pieces`);
    }
  });

  it('reads 500 failures with long messages and deep stacks as the whole-text reader did', async () => {
    const text = trxOf(generatedFailures('/ws', 500));
    const expected = readTrxRunWhole(text, 'Ledger.Tests');
    assert.equal(expected.result.failures.length, 500);
    assert.deepEqual(plain(await readInPieces(text, 64 * 1024, 'Ledger.Tests')), plain(expected));
  });

  it('counts data-driven rows, qualifies MSTest names and reads CDATA and CRLF stacks as before', async () => {
    const expected = readTrxRunWhole(MSTEST_ROWS, 'Calc.Tests');
    const run = await readInPieces(MSTEST_ROWS, 5, 'Calc.Tests');
    assert.deepEqual(plain(run), plain(expected));
    assert.deepEqual(
      [run.result.total, run.result.passed, run.result.failed, run.result.skipped, run.result.durationMs],
      [3, 1, 1, 1, 2500],
    );
    assert.deepEqual(run.result.failures, [
      {
        testName: 'Calc.AddTests.Add (2,2,5)',
        message: 'Expected:<5>. Actual:<4> & "more"',
        stackTrace: '   at Calc.AddTests.Add(Int32 a) in C:\\src\\AddTests.cs:line 9',
      },
    ]);
    assert.deepEqual(
      [...run.outcomes],
      [
        ['Calc.AddTests.Add (1,1,2)', 'passed'],
        ['Calc.AddTests.Add (2,2,5)', 'failed'],
        ['Calc.AddTests.Skips', 'skipped'],
      ],
    );
  });

  it('reads a BOM, namespace prefixes, entities, CDATA, mixed content and multi-byte characters split across pieces as before', async () => {
    const expected = readTrxRunWhole(EDGES, 'Ns.Tests');
    for (const size of [1, 3, 1024])
      assert.deepEqual(plain(await readInPieces(EDGES, size, 'Ns.Tests')), plain(expected), `pieces of ${size}`);
    const { result, outcomes } = readTrxRun(EDGES, 'Ns.Tests');
    assert.deepEqual(
      result.failures.map((failure) => [failure.testName, failure.message]),
      [
        ['Ns.Tests.Entities(text: "<b> & é ✓")', 'Widget <b> & "gadget" broke: <raw> & done\nsecond line ✓'],
        ['Ns.Tests.Mixed', 'ac'],
        ['Ns.Tests.NoMessage', 'Test outcome: Timeout'],
      ],
    );
    assert.equal(outcomes.get('Ns.Tests.Mixed'), 'failed', 'a passing row with the same name does not hide the failure');
  });

  it('decodes character references (the whole-text reader left "&#xD;&#xA;" as written)', () => {
    const xml =
      '<TestRun><Results><UnitTestResult testName="T.M(s: &quot;a&#xA;b&quot;)" outcome="Failed"><Output><ErrorInfo><Message>one&#xD;&#xA;two &#169;</Message></ErrorInfo></Output></UnitTestResult></Results></TestRun>';
    assert.deepEqual(readTrxRun(xml).result.failures, [{ testName: 'T.M(s: "a\nb")', message: 'one\r\ntwo ©', stackTrace: '' }]);
  });

  // The whole-text reader was not consistent here (it decoded "&#x1B;" in an attribute, dropped "&#0;").
  it('reads stray control characters and undefined entities as written, in pieces or whole', async () => {
    const xml =
      '<TestRun><Results><UnitTestResult testName="T.M(s: &#x1B;[31m)" outcome="Failed"><Output><ErrorInfo><Message>red \u001b[31m &nbsp; &#0; \uFFFE</Message></ErrorInfo></Output></UnitTestResult></Results></TestRun>';
    assert.deepEqual(plain(await readInPieces(xml, 3)), plain(readTrxRun(xml)));
    assert.deepEqual(readTrxRun(xml).result.failures, [
      { testName: 'T.M(s: &#x1B;[31m)', message: 'red \u001b[31m &nbsp; &#0; \uFFFE', stackTrace: '' },
    ]);
  });

  it('refuses a cut-off document, tags that do not match, and one that is not TRX', async () => {
    const text = readFileSync(fixtures[0] ?? '', 'utf8');
    await assert.rejects(readInPieces(text.slice(0, Math.floor(text.length / 2)), 4096, 'Cut.Tests'), /unclosed tag/);
    await assert.rejects(readInPieces('<TestRun><Results></TestRun>', 4, 'Bad.Tests'), /unexpected close tag/);
    await assert.rejects(readInPieces('<html><body>nope</body></html>', 4, 'X.Tests'), /Not a TRX document.*X\.Tests/);
  });
});

/** The host's file system without readChunks (methods bound: the node one is a class). */
function bytesOnly(fs: Host['fs']): Host['fs'] {
  return {
    readFile: (abs) => fs.readFile(abs),
    writeFile: (abs, data) => fs.writeFile(abs, data),
    appendFile: (abs, data) => fs.appendFile(abs, data),
    deleteFile: (abs) => fs.deleteFile(abs),
    exists: (abs) => fs.exists(abs),
    listFiles: (abs, options) => fs.listFiles(abs, options),
  };
}

describe('TRX files through the host', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ironbees-trx-stream-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads each file in pieces and deletes it; a damaged one becomes a run failure', async () => {
    const host = createNodeHost(dir);
    const good = path.join(dir, 'good.trx');
    const cut = path.join(dir, 'cut.trx');
    const text = trxOf(generatedFailures(dir, 10));
    writeFileSync(good, text);
    writeFileSync(cut, text.slice(0, 300));
    const chunks = await host.fs.readChunks?.(good);
    assert.ok(chunks, 'the node host reads files in pieces');
    const sizes: number[] = [];
    for await (const chunk of chunks) sizes.push(chunk.length);
    const bytes = Buffer.byteLength(text);
    assert.ok(bytes > 64 * 1024 && bytes < 128 * 1024, `${bytes} bytes`);
    assert.deepEqual(sizes, [64 * 1024, bytes - 64 * 1024], 'two pieces of a 64+ KB file');
    assert.equal(await host.fs.readChunks?.(path.join(dir, 'missing.trx')), null);

    // Whole-file reads refused: the reports must come through readChunks.
    const fs = host.fs;
    const chunksOnly: Host = {
      ...host,
      fs: {
        ...bytesOnly(fs),
        readFile: () => Promise.reject(new Error('read whole')),
        readChunks: (abs) => fs.readChunks?.(abs) ?? Promise.resolve(null),
      },
    };
    const reports = await takeTrxReports(chunksOnly, [good, path.join(dir, 'missing.trx')], 'Ledger.Tests');
    assert.equal(reports.length, 1);
    assert.deepEqual(plain(reports[0] as TrxRun), plain(readTrxRunWhole(text, 'Ledger.Tests')));
    assert.equal(existsSync(good), false, 'read and deleted');

    const outcomes = new Map();
    const damaged = resultFromTrx(
      { absPath: '', name: 'Ledger.Tests' },
      await takeTrxReports(host, [cut], 'Ledger.Tests'),
      'output',
      outcomes,
    );
    assert.equal(damaged.failures[0]?.testName, '[test run] Ledger.Tests');
    assert.match(damaged.failures[0]?.message ?? '', /^Could not read the test results: /);
    assert.equal(existsSync(cut), false);
  });

  it('keeps what the result needs, not the pieces of the document its strings came from', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const file = path.join(dir, 'big.trx');
    writeFileSync(file, trxOf(generatedFailures(dir, 500)));
    const host = createNodeHost(dir);
    // Each step in its own function, so no frame keeps a result alive past its measure.
    const read = async (): Promise<TrxRun> => readTrxChunks((await host.fs.readChunks?.(file)) ?? [], 'Ledger.Tests');
    const warm = async (): Promise<number> => (await read()).result.total;
    assert.equal(await warm(), 500);
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    const run = await read();
    gc();
    gc();
    const retained = process.memoryUsage().heapUsed - before;
    // Messages are one byte a character; the shown stacks two ("…" is outside Latin-1).
    const needed = run.result.failures.reduce(
      (sum, failure) => sum + failure.testName.length + failure.message.length + 2 * failure.stackTrace.length,
      0,
    );
    assert.ok(statSync(file).size > 5_000_000);
    assert.ok(retained < needed * 1.25 + 1024 * 1024, `retained ${retained} bytes for ${needed} bytes of results (a 5 MB document)`);
  });

  it('reads through a host without readChunks from its bytes', async () => {
    const node = createNodeHost(dir);
    const file = path.join(dir, 'one.trx');
    const text = readFileSync(path.join(FIXTURES, 'trx', 'mstest-data-driven.trx'), 'utf8');
    writeFileSync(file, text);
    const host: Host = { ...node, fs: bytesOnly(node.fs) };
    const [report] = await takeTrxReports(host, [file], 'Calc');
    assert.deepEqual(plain(report as TrxRun), plain(readTrxRunWhole(text, 'Calc')));
  });
});
