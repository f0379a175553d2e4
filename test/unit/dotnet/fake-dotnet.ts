// A scripted `dotnet` for validator unit tests: build commands answer with canned MSBuild output, test
// commands write one TRX per target framework where `--logger trx;LogFilePrefix=` and `--results-directory` say.

import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ProcessRunner, RunOptions, RunResult } from '../../../src/core/host';

export interface FakeTest {
  name: string;
  outcome: 'Passed' | 'Failed' | 'NotExecuted';
  message?: string;
  /** The failure's stack as the runner prints it; one frame in /ws/T.cs when absent. */
  stackTrace?: string;
}

export interface BuildReply {
  exitCode?: number;
  stdout?: string;
  timedOut?: boolean;
}

export interface RecordedCall {
  args: string[];
  env: Record<string, string>;
  /** What the command was for (RunOptions.label), e.g. baseline. */
  label?: string;
  /** The limit the runner was given for it. */
  timeoutMs?: number;
}

export function trxOf(tests: readonly FakeTest[]): string {
  const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const results = tests
    .map((test, index) => {
      const output = test.message
        ? `<Output><ErrorInfo><Message>${escape(test.message)}</Message><StackTrace>${escape(test.stackTrace ?? `   at ${test.name}() in /ws/T.cs:line ${index + 1}`)}</StackTrace></ErrorInfo></Output>`
        : '';
      return `<UnitTestResult executionId="e${index}" testId="t${index}" testName="${escape(test.name)}" outcome="${test.outcome}">${output}</UnitTestResult>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="utf-8"?>
<TestRun id="r" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><Results>${results}</Results>
<ResultSummary outcome="${tests.some((test) => test.outcome === 'Failed') ? 'Failed' : 'Completed'}" /></TestRun>`;
}

export class FakeDotnet implements ProcessRunner {
  readonly calls: RecordedCall[] = [];
  /** Build replies, used in order; the last one repeats. */
  private builds: BuildReply[] = [{ exitCode: 0, stdout: 'Build succeeded.' }];
  /** Test results by test project name (the .csproj file name without extension). */
  tests = new Map<string, FakeTest[]>();
  /** A ready TRX document by test project name, written instead of one made from `tests` (big suites, made once). */
  trxTexts = new Map<string, string>();
  missing = false;
  /** Target frameworks by test project: one TRX each. Results for `Project:tfm` override those for `Project`. */
  frameworks = new Map<string, string[]>();
  /** Whether `dotnet test` prints its "Results File:" lines (they can be lost from a truncated output). */
  announceResults = true;
  private buildIndex = 0;

  /** The next builds answer with these, in order (the last one repeats). */
  scriptBuilds(...replies: BuildReply[]): void {
    this.builds = replies;
    this.buildIndex = 0;
  }

  async run(command: string, given: readonly string[], options: RunOptions): Promise<RunResult> {
    const args = vstestForm(given);
    if (this.missing) throw Object.assign(new Error(`spawn ${command} ENOENT`), { code: 'ENOENT' });
    this.calls.push({
      args: [...given],
      env: { ...options.env },
      timeoutMs: options.timeoutMs,
      ...(options.label ? { label: options.label } : {}),
    });
    const base = { stdout: '', stderr: '', durationMs: 5, timedOut: false, cancelled: false };
    if (args[0] === 'build') {
      const reply = this.builds[Math.min(this.buildIndex++, this.builds.length - 1)] ?? {};
      // As the real hosts do: the output streams while the build runs.
      if (reply.stdout) options.onOutput?.(reply.stdout, 'stdout');
      return {
        ...base,
        exitCode: reply.timedOut ? null : (reply.exitCode ?? 0),
        stdout: reply.stdout ?? '',
        timedOut: reply.timedOut ?? false,
      };
    }
    if (args[0] === 'test') {
      const project = path.basename(args[1] ?? '').replace(/\.csproj$/, '');
      const logger = args[args.indexOf('--logger') + 1] ?? '';
      const resultsDir = args[args.indexOf('--results-directory') + 1] ?? '';
      const prefix = /LogFilePrefix=([^;]+)/.exec(logger)?.[1] ?? 'out';
      mkdirSync(resultsDir, { recursive: true });
      const lines: string[] = [];
      for (const framework of this.frameworks.get(project) ?? ['net10.0']) {
        const file = path.join(resultsDir, `${prefix}_${framework}_20250101000000.trx`);
        writeFileSync(
          file,
          this.trxTexts.get(project) ?? trxOf(this.tests.get(`${project}:${framework}`) ?? this.tests.get(project) ?? []),
        );
        lines.push(`Results File: ${file}`);
      }
      return { ...base, exitCode: 0, stdout: this.announceResults ? lines.join('\n') : 'Passed!' };
    }
    if (args[0] === 'vstest') {
      // `dotnet vstest <dll> --logger:trx;LogFileName=<name> --ResultsDirectory:<dir>`: one TRX, by that name.
      const project = path.basename(args[1] ?? '').replace(/\.dll$/, '');
      const resultsDir = /^--ResultsDirectory:(.+)$/.exec(args.find((arg) => arg.startsWith('--ResultsDirectory:')) ?? '')?.[1] ?? '';
      const name = /LogFileName=([^;]+)/.exec(args.find((arg) => arg.startsWith('--logger:')) ?? '')?.[1] ?? 'out.trx';
      mkdirSync(resultsDir, { recursive: true });
      const file = path.join(resultsDir, name);
      writeFileSync(file, trxOf(this.tests.get(project) ?? []));
      return { ...base, exitCode: 0, stdout: this.announceResults ? `Results File: ${file}` : 'Passed!' };
    }
    return { ...base, exitCode: 0 };
  }

  /** The build and test commands, in order, as `verb target` (targets relative to `root`; vstest.console started directly reads as `vstest`). */
  summary(root: string): string[] {
    return this.calls.map(({ args: given }) => {
      const args = vstestForm(given);
      const target = args[1] && path.isAbsolute(args[1]) ? path.relative(root, args[1]).split(path.sep).join('/') : (args[1] ?? '');
      const restore = args[0] === 'build' ? (args.includes('--no-restore') ? ' --no-restore' : ' +restore') : '';
      return `${args[0]} ${target}${restore}`;
    });
  }
}

/** `exec <sdk>/vstest.console.dll <dll> …` (the console started directly) as `vstest <dll> …`: the same run. */
export function vstestForm(args: readonly string[]): string[] {
  if (args[0] === 'exec' && /vstest\.console\.dll$/.test(args[1] ?? '')) return ['vstest', ...args.slice(2)];
  return [...args];
}
