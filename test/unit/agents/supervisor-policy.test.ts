// The supervisor's policy (agents/supervisor/policy.ts) and the coder's reduced scope: what follows
// each timeout, each role's silence limit, and the words a restarted agent reads first.

import assert from 'node:assert/strict';
import {
  DEFAULT_SILENCE_SECONDS_OTHER,
  actionAfterTimeout,
  continuationContext,
  escalationReason,
  reducedScopeContext,
  silenceLimitMs,
} from '../../../src/core/agents/supervisor/policy';
import { remainingSteps } from '../../../src/core/agents/coder/remaining-steps';
import type { CoderInput } from '../../../src/core/agents/coder/runner';
import type { ExecutionPlan } from '../../../src/core/model';

describe('supervisor policy', () => {
  it('first timeout: restart with context; second: reduced scope; third and after: escalate', () => {
    assert.deepEqual([1, 2, 3, 4].map(actionAfterTimeout), ['restart_with_context', 'restart_reduced_scope', 'escalate', 'escalate']);
  });

  it("silence limits: --agent-timeout when set, else the role's default (planner 5 min, coder 10 min, others 10 min)", () => {
    assert.equal(silenceLimitMs('coder', 2000), 2000);
    assert.equal(silenceLimitMs('planner', 2000), 2000);
    assert.equal(silenceLimitMs('planner', undefined), 300_000);
    assert.equal(silenceLimitMs('reviewer', undefined), 300_000);
    assert.equal(silenceLimitMs('coder', undefined), 600_000);
    assert.equal(silenceLimitMs('docs', undefined), DEFAULT_SILENCE_SECONDS_OTHER * 1000);
    assert.equal(DEFAULT_SILENCE_SECONDS_OTHER, 600);
    // A nonsense setting is no limit of zero: the default holds.
    assert.equal(silenceLimitMs('coder', 0), 600_000);
    assert.equal(silenceLimitMs('coder', Number.NaN), 600_000);
  });

  it('the continuation context names what it had done, its staged files and its last words', () => {
    const text = continuationContext('coder', 2, {
      done: ['read src/A.cs lines 1–10 of 10', 'edited src/A.cs'],
      stagedFiles: ['src/A.cs'],
      lastWords: '  Now the tests.  ',
    });
    assert.equal(
      text,
      [
        '# Continuation context',
        '',
        'You were interrupted: you (the coder) were working on this task but were silent for 2 s (no answer, no tool call), ' +
          'so you were stopped and started again. Continue from where you left off; do not start from scratch.',
        '',
        '## What you had done',
        '',
        '- read src/A.cs lines 1–10 of 10',
        '- edited src/A.cs',
        '',
        '## Files you had staged (they still hold your changes)',
        '',
        '- src/A.cs',
        '',
        '## Your last words',
        '',
        'Now the tests.',
      ].join('\n'),
    );
  });

  it('the continuation context of an agent that had done nothing says so, and keeps only the last 40 calls', () => {
    const empty = continuationContext('planner', 1.5, { done: [], stagedFiles: [], lastWords: '' });
    assert.ok(empty.includes('silent for 1.5 s'));
    assert.ok(empty.includes('## What you had done\n\n(no tool call yet)\n'));
    assert.ok(empty.includes('## Files you had staged (they still hold your changes)\n\n(none)\n'));
    assert.ok(empty.endsWith('## Your last words\n\n(none)'));
    const many = continuationContext('coder', 2, {
      done: Array.from({ length: 45 }, (_, i) => `call ${i + 1}`),
      stagedFiles: [],
      lastWords: '',
    });
    assert.ok(many.includes('(5 earlier calls not shown)\n- call 6\n'));
    assert.ok(!many.includes('- call 5\n'));
  });

  it('the reduced scope and the escalation reason', () => {
    assert.equal(
      reducedScopeContext('coder', 2, ['src/A.cs'], 'Only step 2.'),
      [
        '# Restarted with a reduced scope',
        '',
        'You (the coder) were interrupted twice: silent for 2 s each time, so you start fresh on a smaller task. Keep each step short and call a tool early.',
        '',
        '## Files already staged (keep these changes; do not redo them)',
        '',
        '- src/A.cs',
        '',
        '## What remains',
        '',
        'Only step 2.',
      ].join('\n'),
    );
    assert.ok(!reducedScopeContext('coder', 2, [], null).includes('## What remains'));
    assert.equal(
      escalationReason('coder', 2, 3, ['src/A.cs']),
      'The coder was silent for 2 s (no model output, no tool call) 3 times and was stopped each time ' +
        '(restarted with its progress, then with a reduced scope). Staged when it stopped: src/A.cs. ' +
        'Check the model provider, or give guidance and continue.',
    );
  });
});

describe("the coder's reduced scope: the plan's steps whose file is not staged yet", () => {
  const plan: ExecutionPlan = {
    summary: 'Fix and cover',
    steps: [
      { number: 1, description: 'Fix', actionType: 'MODIFY', filePath: 'src/A.cs', rationale: '' },
      { number: 2, description: 'Cover', actionType: 'MODIFY', filePath: 'test/ATests.cs', rationale: '' },
    ],
    affectedFiles: ['src/A.cs'],
    complexity: 'LOW',
  };
  const input = { request: 'r', spec: 's', plan, errorContext: null, iteration: 1 } as unknown as CoderInput;

  it('keeps the steps left, and every file of the plan in scope (a staged file is never "outside the plan")', () => {
    const reduced = remainingSteps(input, ['src/A.cs']);
    assert.deepEqual(
      reduced.input.plan.steps.map((step) => step.number),
      [2],
    );
    assert.deepEqual(reduced.input.plan.affectedFiles, ['src/A.cs', 'test/ATests.cs']);
    assert.equal(
      reduced.remaining,
      'Only these steps of the plan are left:\n\nFix and cover (complexity LOW)\n\n2. MODIFY `test/ATests.cs`: Cover',
    );
    assert.equal(input.plan.steps.length, 2, 'the original input is not changed');
  });

  it('nothing staged, or every step staged: the whole plan stays', () => {
    assert.equal(remainingSteps(input, []).input, input);
    assert.equal(remainingSteps(input, []).remaining, null);
    assert.equal(remainingSteps(input, ['src/A.cs', 'test/ATests.cs']).input, input);
  });
});
