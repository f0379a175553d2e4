// Plain sample data for workflow tests: a plan, edits made the way the coder makes them, and
// validation outcomes that pass or fail.

import type { Baseline, ErrorContext, ExecutionPlan, FileEdit, Usage, WorkflowContext } from '../../../src/core/model';
import { DEFAULT_MAX_ITERATIONS } from '../../../src/core/model';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import type { CodeOutput, PlanOutput, RunInput, ValidateOutput } from '../../../src/core/workflow/run-context';

export function usage(inputTokens = 100, outputTokens = 20): Usage {
  return { inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.001 };
}

export function workflow(overrides: Partial<WorkflowContext> = {}): WorkflowContext {
  return {
    workspaceRoot: '/ws',
    maxIterations: DEFAULT_MAX_ITERATIONS,
    approval: { plan: 'always', diffs: 'always' },
    timeouts: { buildMs: 60_000, testMs: 60_000 },
    ...overrides,
  };
}

export function runInput(overrides: Partial<WorkflowContext> = {}): RunInput {
  return {
    stateId: 'run-1',
    userRequest: 'Fix the failing Calculator test',
    workflow: workflow(overrides),
    createdAt: '2025-01-01T00:00:00.000Z',
  };
}

export function baseline(): Baseline {
  return {
    build: { success: true, errors: [], warnings: [], durationMs: 10 },
    test: {
      success: false,
      total: 2,
      passed: 1,
      failed: 1,
      skipped: 0,
      failures: [{ testName: 'Calc.Adds', message: 'Expected 3', stackTrace: '' }],
      durationMs: 10,
    },
    capturedAt: '2025-01-01T00:00:01.000Z',
  };
}

export function plan(summary = 'Fix Add'): ExecutionPlan {
  return {
    summary,
    steps: [{ number: 1, description: 'Return a + b', actionType: 'MODIFY', filePath: 'src/Calc.cs', rationale: 'Add subtracts' }],
    affectedFiles: ['src/Calc.cs'],
    complexity: 'LOW',
  };
}

export function planOutput(summary = 'Fix Add'): PlanOutput {
  return { spec: `Spec: ${summary}`, plan: plan(summary), usage: usage() };
}

/** Two hunks far apart, so a person can accept one and reject the other. */
export const CALC_BEFORE = [
  'class Calc {',
  '  int Add(int a, int b) => a - b;',
  ...Array.from({ length: 12 }, (_, i) => `  // line ${i}`),
  '  int Mul(int a, int b) => a + b;',
  '}',
  '',
].join('\n');
export const CALC_AFTER = CALC_BEFORE.replace('a - b', 'a + b').replace('=> a + b;\n}', '=> a * b;\n}');

export function twoFileEdits(): FileEdit[] {
  return [makeFileEdit('src/Calc.cs', CALC_BEFORE, CALC_AFTER), makeFileEdit('src/Notes.md', null, '# Notes\n')];
}

export function codeOutput(edits: FileEdit[] = twoFileEdits(), summary = 'Fixed Add and Mul'): CodeOutput {
  return { summary, edits, usage: usage(50, 10) };
}

export function passing(): ValidateOutput {
  return {
    build: { success: true, errors: [], warnings: [], durationMs: 5 },
    test: { success: true, total: 2, passed: 2, failed: 0, skipped: 0, failures: [], durationMs: 5 },
    passed: true,
    errorContext: null,
    newErrors: 0,
    newFailures: 0,
  };
}

export function errorContext(iteration: number): ErrorContext {
  return {
    iteration,
    text: `Iteration ${iteration}: Calc.Multiplies fails`,
    newBuildErrors: [],
    newTestFailures: [{ testName: 'Calc.Multiplies', message: 'Expected 6, got 5', stackTrace: 'at Calc.Mul' }],
    preExistingFailures: [],
  };
}

export function failing(iteration: number): ValidateOutput {
  const context = errorContext(iteration);
  return {
    build: { success: true, errors: [], warnings: [], durationMs: 5 },
    test: { success: false, total: 2, passed: 1, failed: 1, skipped: 0, failures: context.newTestFailures, durationMs: 5 },
    passed: false,
    errorContext: context,
    newErrors: 0,
    newFailures: 1,
  };
}
