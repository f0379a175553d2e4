// Reads a TRX document as it streams in (saxes, a SAX parser): a test project that breaks 500 tests
// writes a TRX of several MB, and holding that text and a tree of it doubled a run's peak memory.
// Only what the result needs is kept while reading: each test's name, id and outcome, and for a failed
// one its message and stack; the class names (<TestDefinitions>, which come after <Results>), the run's
// outcome and times. Names are qualified and stacks focused once the whole document has been read.
// Counts come from the results themselves, not from <Counters>: xunit's adapter reports skipped tests
// as executed, and data-driven MSTest results count the parent and its rows differently.

import { SaxesParser } from 'saxes';
import type { SaxesTagPlain } from 'saxes';
import type { TestFailure, TestResult } from '../model';
import { focusStack } from './stack-frames';

/** Enough of a stack for the model to find the failing line; the rest is framework plumbing. */
export const MAX_STACK_LINES = 15;

const PASSED_OUTCOMES = new Set(['Passed', 'PassedButRunAborted', 'Warning', 'Completed']);
const SKIPPED_OUTCOMES = new Set(['NotExecuted', 'Inconclusive', 'Pending', 'InProgress']);
const HEALTHY_RUN_OUTCOMES = new Set(['Completed', 'Passed', 'Warning', 'PassedButRunAborted']);

export type TestOutcomeKind = 'passed' | 'failed' | 'skipped';

/** A parsed TRX: the result, and how each test that ran ended (passed ones included). */
export interface TrxRun {
  result: TestResult;
  outcomes: Map<string, TestOutcomeKind>;
}

/** One <UnitTestResult> as read: a failed one keeps its message and raw stack until names are known. */
interface ReadResult {
  rawName: string;
  testId: string;
  outcome: string;
  kind: TestOutcomeKind;
  message: string;
  stackTrace: string;
  /** A data-driven parent: its rows are counted, not it. */
  hasRows: boolean;
  /** Depth of its element in the document (the root is 0). */
  depth: number;
}

function kindOf(outcome: string): TestOutcomeKind {
  if (PASSED_OUTCOMES.has(outcome)) return 'passed';
  return SKIPPED_OUTCOMES.has(outcome) ? 'skipped' : 'failed';
}

/**
 * The text as a string of its own. What the parser hands over are slices of the piece being read, and
 * V8 keeps a whole piece alive for any slice of it that lives on: 500 kept messages kept every piece of
 * the document. Concatenating and slicing again makes V8 copy the characters into a new string.
 */
function owned(text: string): string {
  return text.length < 13 ? text : ` ${text}`.slice(1);
}

/** Element names without their namespace prefix (`t:TestRun` is `TestRun`). */
function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/** Attribute by local name (`a:outcome` answers for `outcome`), '' when absent. */
function attributeOf(tag: SaxesTagPlain, name: string): string {
  for (const [key, value] of Object.entries(tag.attributes)) if (localName(key) === name) return value;
  return '';
}

type TextTarget = 'message' | 'stackTrace' | 'runInfo';

/**
 * Faults in single characters, read as written (as the whole-text reader did): TRX writers replace what
 * XML forbids, but a message with a stray control character must not cost the whole run's results.
 * Anything else (a cut-off document, tags that do not match) is not a document to read.
 */
const TOLERATED_FAULTS = new Set(['disallowed character.', 'malformed character entity.', 'undefined entity.']);

/**
 * Feed it the document's text in pieces (`write`), then `finish`. Throws (from either) when the text is
 * not well-formed XML; `finish` throws when it is no TRX document.
 */
export class TrxReader {
  private readonly parser = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
  /** Local names of the open elements, the root first. */
  private readonly path: string[] = [];
  private readonly open: ReadResult[] = [];
  private readonly leaves: ReadResult[] = [];
  private readonly classNames = new Map<string, string>();
  private readonly runInfos: string[] = [];
  private isTestRun = false;
  private runOutcome = '';
  private times = { start: '', finish: '' };
  private unitTestId: string | null = null;
  /** Where the text of the element being read goes (its own text only, as its depth says). */
  private text: { target: TextTarget; depth: number; value: string } | null = null;

  constructor(private readonly sourceName: string) {
    this.parser.on('opentag', (tag) => this.opened(tag));
    this.parser.on('closetag', () => this.closed());
    this.parser.on('text', (text) => this.addText(text));
    this.parser.on('cdata', (text) => this.addText(text));
    this.parser.on('error', (error) => {
      if (!TOLERATED_FAULTS.has(error.message)) throw error;
    });
  }

  write(text: string): void {
    this.parser.write(text);
  }

  finish(): TrxRun {
    this.parser.close();
    if (!this.isTestRun) throw new Error(`Not a TRX document (no <TestRun> element) for ${this.sourceName}`);
    return this.tally();
  }

  private opened(tag: SaxesTagPlain): void {
    const name = localName(tag.name);
    const parent = this.path.length === 0 ? '' : this.path.join('/');
    const depth = this.path.length;
    this.path.push(name);
    if (depth === 0) {
      this.isTestRun = name === 'TestRun';
      return;
    }
    if (!this.isTestRun) return;
    if (name === 'UnitTestResult') this.openResult(tag, parent, depth);
    else if (parent === 'TestRun' && name === 'Times')
      this.times = { start: attributeOf(tag, 'start'), finish: attributeOf(tag, 'finish') };
    else if (parent === 'TestRun' && name === 'ResultSummary') this.runOutcome = owned(attributeOf(tag, 'outcome'));
    else if (parent === 'TestRun/ResultSummary/RunInfos/RunInfo' && name === 'Text') this.text = { target: 'runInfo', depth, value: '' };
    else if (parent === 'TestRun/TestDefinitions' && name === 'UnitTest') this.unitTestId = owned(attributeOf(tag, 'id'));
    else if (parent === 'TestRun/TestDefinitions/UnitTest' && name === 'TestMethod' && this.unitTestId !== null) {
      const className = attributeOf(tag, 'className');
      if (className) this.classNames.set(this.unitTestId, owned(className));
    } else if (name === 'Message' || name === 'StackTrace') this.openErrorText(name, depth);
  }

  /** A result directly under <Results>, or a row in the <InnerResults> of the result being read. */
  private openResult(tag: SaxesTagPlain, parent: string, depth: number): void {
    const current = this.open[this.open.length - 1];
    const isRow = current !== undefined && current.depth === depth - 2 && this.path[depth - 1] === 'InnerResults';
    if (parent !== 'TestRun/Results' && !isRow) return;
    const outcome = attributeOf(tag, 'outcome');
    const read = { rawName: owned(attributeOf(tag, 'testName')), testId: owned(attributeOf(tag, 'testId')), outcome: owned(outcome) };
    this.open.push({ ...read, kind: kindOf(outcome), message: '', stackTrace: '', hasRows: false, depth });
  }

  /** <Output><ErrorInfo><Message|StackTrace> of the result being read; kept for failed results only. */
  private openErrorText(name: 'Message' | 'StackTrace', depth: number): void {
    const current = this.open[this.open.length - 1];
    if (current?.kind !== 'failed' || current.depth !== depth - 3) return;
    if (this.path[depth - 2] !== 'Output' || this.path[depth - 1] !== 'ErrorInfo') return;
    this.text = { target: name === 'Message' ? 'message' : 'stackTrace', depth, value: '' };
  }

  private addText(text: string): void {
    if (this.text !== null && this.path.length === this.text.depth + 1) this.text.value += text;
  }

  private closed(): void {
    const depth = this.path.length - 1;
    this.path.pop();
    if (this.text !== null && this.text.depth === depth) this.closeText(this.text);
    const current = this.open[this.open.length - 1];
    if (current?.depth !== depth) return;
    this.open.pop();
    const parent = this.open[this.open.length - 1];
    if (parent) parent.hasRows = true;
    // A data-driven parent sums its rows; count the rows, not the parent.
    if (!current.hasRows) this.leaves.push(current);
  }

  private closeText(text: { target: TextTarget; value: string }): void {
    this.text = null;
    if (text.target === 'runInfo') {
      this.runInfos.push(owned(text.value));
      return;
    }
    const current = this.open[this.open.length - 1];
    if (current) current[text.target] = owned(text.value);
  }

  private tally(): TrxRun {
    const outcomes = new Map<string, TestOutcomeKind>();
    const failures: TestFailure[] = [];
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const leaf of this.leaves) {
      const testName = this.qualified(leaf);
      counts[leaf.kind] += 1;
      if (leaf.kind === 'passed') {
        // Rows can share a name (theory data that does not serialize); one failing row fails the name.
        if (outcomes.get(testName) !== 'failed') outcomes.set(testName, 'passed');
      } else if (leaf.kind === 'skipped') {
        if (!outcomes.has(testName)) outcomes.set(testName, 'skipped');
      } else {
        outcomes.set(testName, 'failed');
        failures.push({
          testName,
          message: leaf.message.trim() || `Test outcome: ${leaf.outcome || 'unknown'}`,
          stackTrace: focusStack(leaf.stackTrace, testName, MAX_STACK_LINES),
        });
      }
    }
    this.leaves.length = 0;
    let total = counts.passed + counts.failed + counts.skipped;
    const runFailure = counts.failed === 0 ? this.runLevelFailure() : null;
    if (runFailure) {
      counts.failed += 1;
      total += 1;
      failures.push(runFailure);
      outcomes.set(runFailure.testName, 'failed');
    }
    const result: TestResult = { success: counts.failed === 0, total, ...counts, failures, durationMs: this.durationMs() };
    return { result, outcomes };
  }

  /** MSTest names results by method only; xunit by the full name. Qualify the short ones with their class. */
  private qualified(leaf: ReadResult): string {
    const className = this.classNames.get(leaf.testId);
    return className && !leaf.rawName.startsWith(`${className}.`) ? `${className}.${leaf.rawName}` : leaf.rawName;
  }

  /** A run that ended badly (test host crash, adapter error) with no failed test to show for it. */
  private runLevelFailure(): TestFailure | null {
    if (this.runOutcome === '' || HEALTHY_RUN_OUTCOMES.has(this.runOutcome)) return null;
    const infos = this.runInfos.map((text) => text.trim()).filter(Boolean);
    return {
      testName: `[test run] ${this.sourceName}`,
      message: infos.join('\n') || `The test run ended with outcome ${this.runOutcome}.`,
      stackTrace: '',
    };
  }

  private durationMs(): number {
    const start = Date.parse(this.times.start);
    const finish = Date.parse(this.times.finish);
    return Number.isFinite(start) && Number.isFinite(finish) && finish >= start ? finish - start : 0;
  }
}
