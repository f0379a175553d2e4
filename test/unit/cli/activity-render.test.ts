// The live activity as stderr lines: exact text for each level.

import assert from 'node:assert/strict';
import pc from 'picocolors';
import type { ActivityEvent } from '../../../src/core/activity';
import { activityLines } from '../../../src/cli/render/activity';

const colors = pc.createColors(false);
const usage = { inputTokens: 1200, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.0042 };
const turnEnd: ActivityEvent = {
  kind: 'turn_end',
  runId: 'r',
  agent: 'planner',
  turn: 2,
  text: 'Looking at Divide.\n\nIt   multiplies.',
  usage,
  durationMs: 1500,
};
const tool: ActivityEvent = {
  kind: 'tool',
  runId: 'r',
  agent: 'planner',
  turn: 2,
  tool: 'read_file',
  line: 'read src/A.cs lines 1–20 of 20',
  ok: true,
};
const failed: ActivityEvent = {
  kind: 'tool',
  runId: 'r',
  agent: 'coder',
  turn: 3,
  tool: 'read_file',
  line: 'read_file src/B.cs — failed: src/B.cs does not exist.',
  ok: false,
};
const runUsage: ActivityEvent = { kind: 'usage', runId: 'r', usage };
const text: ActivityEvent = { kind: 'text', runId: 'r', agent: 'planner', turn: 2, text: 'Look' };

describe('activityLines: the live activity on stderr', () => {
  it("normal: tool lines, and a turn's words folded to one line; no streamed words, no cost lines", () => {
    assert.deepEqual(activityLines(tool, 'normal', colors), ['  planner · read src/A.cs lines 1–20 of 20']);
    assert.deepEqual(activityLines(failed, 'normal', colors), ['  coder ✕ read_file src/B.cs — failed: src/B.cs does not exist.']);
    assert.deepEqual(activityLines(turnEnd, 'normal', colors), ['  planner › Looking at Divide. It multiplies.']);
    assert.deepEqual(activityLines({ ...turnEnd, text: '' }, 'normal', colors), []);
    assert.deepEqual(activityLines(text, 'normal', colors), []);
    assert.deepEqual(activityLines(runUsage, 'normal', colors), []);
  });

  it("verbose: the words line by line, each call's cost and the run's so far", () => {
    assert.deepEqual(activityLines(turnEnd, 'verbose', colors), [
      '  planner › Looking at Divide.',
      '  planner › It   multiplies.',
      '  planner turn 2: 1,200 in / 40 out tokens · $0.0042 (1.5 s)',
    ]);
    assert.deepEqual(activityLines(runUsage, 'verbose', colors), ['  run so far: 1,200 in / 40 out tokens · $0.0042']);
  });

  it('quiet: nothing', () => {
    for (const event of [tool, failed, turnEnd, runUsage, text]) assert.deepEqual(activityLines(event, 'quiet', colors), []);
  });

  it('a long turn is folded to 160 characters', () => {
    const [line] = activityLines({ ...turnEnd, text: 'x'.repeat(500) }, 'normal', colors);
    assert.equal(line, `  planner › ${'x'.repeat(159)}…`);
  });
});
