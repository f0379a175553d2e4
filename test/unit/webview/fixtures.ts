// A CodingState with sensible defaults for the webview's pure-function tests.

import { EMPTY_USAGE, type CodingState, type ExecutionPlan, type FileEdit } from '../../../src/core/model';

export const SAMPLE_PLAN: ExecutionPlan = {
  summary: 'Fix Divide so it divides',
  steps: [
    { number: 1, description: 'Change * to /', actionType: 'MODIFY', filePath: 'src/Calculator/Calculator.cs', rationale: 'the bug' },
    {
      number: 2,
      description: 'Add a test for zero',
      actionType: 'MODIFY',
      filePath: 'tests/Calculator.Tests/CalculatorTests.cs',
      rationale: 'cover it',
    },
  ],
  affectedFiles: ['src/Calculator/Calculator.cs', 'tests/Calculator.Tests/CalculatorTests.cs'],
  complexity: 'LOW',
};

export const SAMPLE_EDIT: FileEdit = {
  filePath: 'src/Calculator/Calculator.cs',
  type: 'MODIFY',
  originalContent: 'a * b\n',
  newContent: 'a / b\n',
  diffText: '--- a/src/Calculator/Calculator.cs\n+++ b/src/Calculator/Calculator.cs\n@@ -1,1 +1,1 @@\n-a * b\n+a / b\n',
};

export function makeRun(overrides: Partial<CodingState> = {}): CodingState {
  return {
    stateId: 'run-1',
    userRequest: 'Fix the failing Calculator test',
    spec: null,
    plan: null,
    codeDiffs: [],
    buildResult: null,
    testResult: null,
    baseline: null,
    errorContext: null,
    iterationCount: 1,
    maxIterations: 5,
    currentNode: 'PLAN',
    timestamp: '2025-01-01T00:00:00.000Z',
    usage: { ...EMPTY_USAGE },
    metadata: {},
    ...overrides,
  };
}
