// The validation loop (CODE → VALIDATE → DECIDE → CODE): what a validation leaves in the run, the
// verdict DECIDE gives, and what the next iteration starts from.

import type { IterationRecord } from '../model';
import type { DecideInput, DecideOutput, RunContext, ValidateOutput } from './run-context';
import { withPersonsWords } from './steering';

/** DECIDE is pure, but it is a step of its own so the trace and the UI show it. */
export function decide(input: DecideInput): DecideOutput {
  if (input.passed) return { verdict: 'pass' };
  return { verdict: input.iteration < input.maxIterations ? 'retry' : 'escalate' };
}

/** The validation's results, and the iteration's record (replacing one of the same iteration). */
export function validationRecorded(context: RunContext, output: ValidateOutput): Partial<RunContext> {
  const record: IterationRecord = {
    iteration: context.iterationCount,
    summary: context.coderSummary,
    files: context.approvedEdits.map((e) => e.filePath),
    buildOk: output.build.success,
    newErrors: output.newErrors,
    newFailures: output.newFailures,
    outcome: output.passed ? 'passed' : output.build.success ? 'tests failed' : 'build failed',
  };
  return {
    buildResult: output.build,
    testResult: output.test,
    passed: output.passed,
    fixedTests: output.fixedTests ?? [],
    errorContext: withPersonsWords(output.errorContext, context),
    iterations: [...context.iterations.filter((r) => r.iteration !== record.iteration), record],
  };
}

/** DECIDE's retry: the next iteration starts with the person's last words cleared. */
export function nextIteration(context: RunContext): Partial<RunContext> {
  return {
    iterationCount: context.iterationCount + 1,
    rejections: null,
    guidance: null,
    rejectionsInARow: 0,
  };
}
