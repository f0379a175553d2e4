// Shared CodingState builders for the CLI's unit tests.

import type { CodingState, ExecutionPlan, FileEdit } from '../../../src/core/model';

export const PLAN: ExecutionPlan = {
  summary: 'Fix Add so the failing test passes.',
  steps: [
    { number: 1, description: 'Return a + b', actionType: 'MODIFY', filePath: 'src/Calc.cs', rationale: 'Add subtracts today' },
    { number: 2, description: 'Add a regression test', actionType: 'CREATE', filePath: 'tests/AddTests.cs', rationale: '' },
    { number: 3, description: 'Tidy the helper', actionType: 'REFACTOR', filePath: 'src/Calc.cs', rationale: 'readability' },
  ],
  affectedFiles: ['src/Calc.cs', 'tests/AddTests.cs', 'README.md'],
  complexity: 'LOW',
};

export const MODIFY_EDIT: FileEdit = {
  filePath: 'src/Calc.cs',
  type: 'MODIFY',
  originalContent: 'a - b\n',
  newContent: 'a + b\n',
  diffText: [
    'Index: src/Calc.cs',
    '===================================================================',
    '--- src/Calc.cs',
    '+++ src/Calc.cs',
    '@@ -1,3 +1,3 @@',
    ' class Calc {',
    '-  int Add(int a, int b) => a - b;',
    '--- a removed comment line',
    '+  int Add(int a, int b) => a + b;',
    ' }',
    '',
  ].join('\n'),
};

export const CREATE_EDIT: FileEdit = {
  filePath: 'tests/AddTests.cs',
  type: 'CREATE',
  originalContent: null,
  newContent: 'x\n',
  diffText: '--- tests/AddTests.cs\n+++ tests/AddTests.cs\n@@ -0,0 +1,1 @@\n+x\n',
};

export function makeState(overrides: Partial<CodingState> = {}): CodingState {
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
    iterationCount: 0,
    maxIterations: 5,
    currentNode: 'INIT',
    timestamp: '2025-01-01T00:00:00.000Z',
    usage: { inputTokens: 1200, outputTokens: 340, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.0123 },
    metadata: {},
    ...overrides,
  };
}
