// The TRX reader as it was before it streamed (fast-xml-parser over the whole text), kept only to prove
// that the streaming reader (src/core/dotnet/trx-reader.ts) reads every fixture the same way.

import { XMLParser } from 'fast-xml-parser';
import type { TestFailure, TestResult } from '../../src/core/model';
import { focusStack } from '../../src/core/dotnet/stack-frames';
import { MAX_STACK_LINES } from '../../src/core/dotnet/trx-reader';
import type { TestOutcomeKind, TrxRun } from '../../src/core/dotnet/trx-reader';

const PASSED_OUTCOMES = new Set(['Passed', 'PassedButRunAborted', 'Warning', 'Completed']);
const SKIPPED_OUTCOMES = new Set(['NotExecuted', 'Inconclusive', 'Pending', 'InProgress']);
const HEALTHY_RUN_OUTCOMES = new Set(['Completed', 'Passed', 'Warning', 'PassedButRunAborted']);

interface XmlNode {
  [key: string]: unknown;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  isArray: (name) => ['UnitTestResult', 'UnitTest', 'RunInfo'].includes(name),
});

function asNode(value: unknown): XmlNode | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as XmlNode) : undefined;
}

function asNodes(value: unknown): XmlNode[] {
  return Array.isArray(value) ? value.map(asNode).filter((node): node is XmlNode => node !== undefined) : [];
}

/** Text content of an element that may have been parsed as a string or as { '#text': ... }. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const node = asNode(value);
  return node ? textOf(node['#text']) : '';
}

function attribute(node: XmlNode, name: string): string {
  return textOf(node[`@${name}`]);
}

/** MSTest names results by method only; xunit by the full name. Qualify the short ones with their class. */
function classNamesByTestId(testRun: XmlNode): Map<string, string> {
  const classNames = new Map<string, string>();
  for (const unitTest of asNodes(asNode(testRun.TestDefinitions)?.UnitTest)) {
    const className = attribute(asNode(unitTest.TestMethod) ?? {}, 'className');
    if (className) classNames.set(attribute(unitTest, 'id'), className);
  }
  return classNames;
}

interface Tally {
  outcomes: Map<string, TestOutcomeKind>;
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  failures: TestFailure[];
}

function tallyResult(result: XmlNode, classNames: Map<string, string>, tally: Tally): void {
  const inner = asNodes(asNode(result.InnerResults)?.UnitTestResult);
  if (inner.length > 0) {
    // A data-driven parent sums its rows; count the rows, not the parent.
    for (const row of inner) tallyResult(row, classNames, tally);
    return;
  }
  const outcome = attribute(result, 'outcome');
  const rawName = attribute(result, 'testName');
  const className = classNames.get(attribute(result, 'testId'));
  const testName = className && !rawName.startsWith(`${className}.`) ? `${className}.${rawName}` : rawName;
  tally.total += 1;
  if (PASSED_OUTCOMES.has(outcome)) {
    tally.passed += 1;
    // Rows can share a name (theory data that does not serialize); one failing row fails the name.
    if (tally.outcomes.get(testName) !== 'failed') tally.outcomes.set(testName, 'passed');
    return;
  }
  if (SKIPPED_OUTCOMES.has(outcome)) {
    tally.skipped += 1;
    if (!tally.outcomes.has(testName)) tally.outcomes.set(testName, 'skipped');
    return;
  }
  tally.failed += 1;
  tally.outcomes.set(testName, 'failed');
  const errorInfo = asNode(asNode(result.Output)?.ErrorInfo) ?? {};
  tally.failures.push({
    testName,
    message: textOf(errorInfo.Message).trim() || `Test outcome: ${outcome || 'unknown'}`,
    stackTrace: focusStack(textOf(errorInfo.StackTrace), testName, MAX_STACK_LINES),
  });
}

/** A run that ended badly (test host crash, adapter error) with no failed test to show for it. */
function runLevelFailure(testRun: XmlNode, sourceName: string): TestFailure | null {
  const summary = asNode(testRun.ResultSummary);
  const outcome = summary ? attribute(summary, 'outcome') : '';
  if (outcome === '' || HEALTHY_RUN_OUTCOMES.has(outcome)) return null;
  const infos = asNodes(asNode(summary?.RunInfos)?.RunInfo)
    .map((info) => textOf(info.Text).trim())
    .filter(Boolean);
  return {
    testName: `[test run] ${sourceName}`,
    message: infos.join('\n') || `The test run ended with outcome ${outcome}.`,
    stackTrace: '',
  };
}

function durationOf(testRun: XmlNode): number {
  const times = asNode(testRun.Times);
  if (!times) return 0;
  const start = Date.parse(attribute(times, 'start'));
  const finish = Date.parse(attribute(times, 'finish'));
  return Number.isFinite(start) && Number.isFinite(finish) && finish >= start ? finish - start : 0;
}

/** The old reader: the whole text parsed into a tree, then walked. */
export function readTrxRunWhole(xml: string, sourceName = 'tests'): TrxRun {
  const document = asNode(parser.parse(xml.replace(/^\uFEFF/, '')));
  const testRun = asNode(document?.TestRun);
  if (!testRun) throw new Error(`Not a TRX document (no <TestRun> element) for ${sourceName}`);
  const classNames = classNamesByTestId(testRun);
  const tally: Tally = { outcomes: new Map(), total: 0, passed: 0, failed: 0, skipped: 0, failures: [] };
  for (const result of asNodes(asNode(testRun.Results)?.UnitTestResult)) tallyResult(result, classNames, tally);
  if (tally.failed === 0) {
    const runFailure = runLevelFailure(testRun, sourceName);
    if (runFailure) {
      tally.failed += 1;
      tally.total += 1;
      tally.failures.push(runFailure);
      tally.outcomes.set(runFailure.testName, 'failed');
    }
  }
  const result: TestResult = {
    success: tally.failed === 0,
    total: tally.total,
    passed: tally.passed,
    failed: tally.failed,
    skipped: tally.skipped,
    failures: tally.failures,
    durationMs: durationOf(testRun),
  };
  return { result, outcomes: tally.outcomes };
}
