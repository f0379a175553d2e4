// The coder's live lines print under CODE, never under VALIDATE before DECIDE: activity that arrives
// while the last state shown is not an agent's step waits for the next one.

import { strict as assert } from 'node:assert';
import type { ActivityEvent } from '../../../src/core/activity';
import { StepOrderedActivity } from '../../../src/cli/activity-order';

const tool = (line: string): ActivityEvent => ({ kind: 'tool', runId: 'r', agent: 'coder', turn: 1, tool: 'read_file', line, ok: true });

describe('cli: activity under its step', () => {
  function harness(): { out: string[]; ordered: StepOrderedActivity } {
    const out: string[] = [];
    const ordered = new StepOrderedActivity((event) => out.push(event.kind === 'tool' ? event.line : event.kind));
    return { out, ordered };
  }

  it('holds the next iteration’s coder lines until DECIDE and CODE are shown', () => {
    const { out, ordered } = harness();
    ordered.stateShown('CODE');
    ordered.event(tool('read A'));
    ordered.stateShown('VALIDATE');
    out.push('[VALIDATE]');
    ordered.event(tool('read B'));
    ordered.event({
      kind: 'usage',
      runId: 'r',
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
    });
    out.push('[DECIDE]');
    ordered.stateShown('DECIDE');
    out.push('[CODE]');
    ordered.stateShown('CODE');
    ordered.event(tool('read C'));
    assert.deepEqual(out, ['read A', '[VALIDATE]', '[DECIDE]', '[CODE]', 'read B', 'usage', 'read C']);
  });

  it('prints at once before any state is known, and flushes what is held when the run ends', () => {
    const { out, ordered } = harness();
    ordered.event(tool('resumed'));
    ordered.stateShown('WAIT_PLAN_APPROVAL');
    ordered.event(tool('late'));
    assert.deepEqual(out, ['resumed']);
    ordered.flush();
    assert.deepEqual(out, ['resumed', 'late']);
  });
});
