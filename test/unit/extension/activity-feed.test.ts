// The panel's live activity list: built from the run's activity events, posted as what changed
// (every message valid against the protocol's schema), started afresh for a new run or step, and
// put back together by the panel's reducer into exactly the list the feed holds.

import assert from 'node:assert/strict';
import type { ActivityEvent } from '../../../src/core/activity';
import { EMPTY_USAGE } from '../../../src/core/model';
import { ActivityFeed } from '../../../src/extension/activity-feed';
import { activityLogLine } from '../../../src/extension/activity-log';
import { ACTIVITY_PANEL_LIMITS, activityMessageSchema } from '../../../src/shared/protocol';
import type { ActivityMessage } from '../../../src/shared/protocol';
import { applyActivity, expandedText, foldedWords } from '../../../webview-ui/src/state/activity';
import type { PanelActivity } from '../../../webview-ui/src/state/activity';
import { parseExtensionMessage } from '../../../webview-ui/src/state/parse-message';
import { makeRun } from '../webview/fixtures';

const spent = { ...EMPTY_USAGE, inputTokens: 500, outputTokens: 40, costUsd: 0.0021 };

function feedWithPanel(): { feed: ActivityFeed; posted: ActivityMessage[]; panel: () => PanelActivity | null } {
  const posted: ActivityMessage[] = [];
  let panel: PanelActivity | null = null;
  const feed = new ActivityFeed((message) => {
    assert.ok(activityMessageSchema.safeParse(message).success, JSON.stringify(message));
    assert.deepEqual(parseExtensionMessage(structuredClone(message)), message, 'the panel accepts it');
    posted.push(message);
    panel = applyActivity(panel, message);
  });
  return { feed, posted, panel: () => panel };
}

describe('ActivityFeed: the live activity under the current step', () => {
  it('a turn streams its words, is completed with its cost, then its tool line follows', () => {
    const { feed, posted, panel } = feedWithPanel();
    feed.onState(makeRun({ stateId: 'r1', currentNode: 'PLAN' }));
    const events: ActivityEvent[] = [
      { kind: 'turn_start', runId: 'r1', agent: 'planner', turn: 1 },
      { kind: 'text', runId: 'r1', agent: 'planner', turn: 1, text: 'Let me ' },
      { kind: 'text', runId: 'r1', agent: 'planner', turn: 1, text: 'look.' },
      { kind: 'usage', runId: 'r1', usage: spent },
      { kind: 'turn_end', runId: 'r1', agent: 'planner', turn: 1, text: 'Let me look.', usage: spent, durationMs: 900 },
      { kind: 'tool', runId: 'r1', agent: 'planner', turn: 1, tool: 'read_file', line: 'read src/A.cs lines 1–20 of 20', ok: true },
      { kind: 'tool', runId: 'other-run', agent: 'planner', turn: 1, tool: 'read_file', line: 'not ours', ok: true },
    ];
    for (const event of events) feed.onEvent(event);
    assert.deepEqual(panel(), {
      runId: 'r1',
      entries: [
        { id: 1, kind: 'turn', agent: 'planner', turn: 1, text: 'Let me look.', done: true, ok: true, usage: spent },
        { id: 2, kind: 'tool', agent: 'planner', turn: 1, text: 'read src/A.cs lines 1–20 of 20', done: true, ok: true },
      ],
    });
    // The reset for the new run and for the agent's first turn, then one message per change (none for usage or another run).
    assert.deepEqual(
      posted.map((m) => [m.reset, m.entries.map((e) => e.text)]),
      [
        [true, []],
        [true, []],
        [false, ['']],
        [false, ['Let me ']],
        [false, ['Let me look.']],
        [false, ['Let me look.']],
        [false, ['read src/A.cs lines 1–20 of 20']],
      ],
    );
    assert.deepEqual(feed.snapshot(), { type: 'activity', runId: 'r1', reset: true, entries: panel()?.entries });
  });

  it("stays shown at the gate and after; an agent's first turn starts afresh, even before its step's state arrives; another run too", () => {
    const { feed, panel } = feedWithPanel();
    feed.onState(makeRun({ stateId: 'r1', currentNode: 'INIT' }));
    feed.onEvent({ kind: 'turn_start', runId: 'r1', agent: 'planner', turn: 1 });
    feed.onEvent({ kind: 'tool', runId: 'r1', agent: 'planner', turn: 1, tool: 'read_file', line: 'read a', ok: true });
    feed.onState(makeRun({ stateId: 'r1', currentNode: 'PLAN' }));
    feed.onState(makeRun({ stateId: 'r1', currentNode: 'WAIT_PLAN_APPROVAL' }));
    feed.onState(makeRun({ stateId: 'r1', currentNode: 'CODE' }));
    assert.deepEqual(
      panel()?.entries.map((e) => e.text),
      ['', 'read a'],
    );
    feed.onEvent({ kind: 'turn_start', runId: 'r1', agent: 'coder', turn: 1 });
    feed.onEvent({ kind: 'tool', runId: 'r1', agent: 'coder', turn: 1, tool: 'x', line: 'x — failed: no', ok: false });
    assert.deepEqual(
      panel()?.entries.map((e) => [e.kind, e.text, e.ok]),
      [
        ['turn', '', true],
        ['tool', 'x — failed: no', false],
      ],
    );
    feed.onState(makeRun({ stateId: 'r2', currentNode: 'INIT' }));
    assert.deepEqual(panel(), { runId: 'r2', entries: [] });
  });

  it('keeps the newest 200 entries and at most 4000 characters of words (the newest)', () => {
    const { feed, panel, posted } = feedWithPanel();
    feed.onState(makeRun({ stateId: 'r1', currentNode: 'CODE' }));
    for (let i = 1; i <= 205; i++)
      feed.onEvent({ kind: 'tool', runId: 'r1', agent: 'coder', turn: i, tool: 't', line: `line ${i}`, ok: true });
    assert.equal(panel()?.entries.length, ACTIVITY_PANEL_LIMITS.entries);
    assert.equal(panel()?.entries[0]?.text, 'line 6');
    assert.equal(posted.at(-1)?.reset, true);
    feed.onEvent({ kind: 'turn_start', runId: 'r1', agent: 'coder', turn: 300 });
    feed.onEvent({ kind: 'text', runId: 'r1', agent: 'coder', turn: 300, text: `${'a'.repeat(5000)}END` });
    const words = panel()?.entries.at(-1)?.text ?? '';
    assert.equal(words.length, ACTIVITY_PANEL_LIMITS.text);
    assert.ok(words.startsWith('…') && words.endsWith('aEND'));
  });

  it('the output channel line for each kind (debug level), none for streamed words', () => {
    assert.equal(
      activityLogLine({
        kind: 'turn_end',
        runId: 'r1',
        agent: 'planner',
        turn: 2,
        text: 'It\n multiplies.',
        usage: spent,
        durationMs: 900,
      }),
      'Run r1 planner turn 2 (500 in / 40 out tokens, $0.0021, 900 ms): It multiplies.',
    );
    assert.equal(
      activityLogLine({ kind: 'tool', runId: 'r1', agent: 'coder', turn: 1, tool: 'x', line: 'x — failed: no', ok: false }),
      'Run r1 coder: FAILED x — failed: no',
    );
    assert.equal(activityLogLine({ kind: 'usage', runId: 'r1', usage: spent }), 'Run r1 so far: 500 in / 40 out tokens, $0.0021');
    assert.equal(activityLogLine({ kind: 'text', runId: 'r1', agent: 'planner', turn: 2, text: 'It' }), null);
  });

  it('the panel folds a finished turn to one line', () => {
    assert.equal(foldedWords('Let me\n\n  look.'), 'Let me look.');
    assert.equal(foldedWords('x'.repeat(300)).length, 200);
  });

  it('the panel refuses a malformed activity message', () => {
    assert.equal(
      parseExtensionMessage({
        type: 'activity',
        runId: 'r1',
        reset: false,
        entries: [{ id: 1, kind: 'shell', agent: 'a', text: '', done: true, ok: true }],
      }),
      null,
    );
    assert.equal(
      activityMessageSchema.safeParse({
        type: 'activity',
        runId: 'r1',
        reset: false,
        entries: [{ id: 1, kind: 'tool', agent: 'a', turn: 1, text: 'x'.repeat(4001), done: true, ok: true }],
      }).success,
      false,
    );
  });

  it("a tool call's arguments and answer reach the panel, which opens the line to them; a folded turn opens to all its words", () => {
    const { feed, panel } = feedWithPanel();
    feed.onState(makeRun({ stateId: 'r1', currentNode: 'CODE' }));
    const detail = 'Arguments:\n{\n  "path": "src/A.cs"\n}\n\nResult:\nclass A {}';
    feed.onEvent({ kind: 'tool', runId: 'r1', agent: 'coder', turn: 1, tool: 'read_file', line: 'read src/A.cs', ok: true, detail });
    feed.onEvent({ kind: 'tool', runId: 'r1', agent: 'coder', turn: 1, tool: 'submit_changes', line: 'submitted the changes', ok: true });
    const long = `${'word '.repeat(60)}end`;
    feed.onEvent({ kind: 'turn_end', runId: 'r1', agent: 'coder', turn: 2, text: long, usage: spent, durationMs: 5 });
    feed.onEvent({ kind: 'turn_end', runId: 'r1', agent: 'coder', turn: 3, text: 'Done.', usage: spent, durationMs: 5 });
    const entries = panel()?.entries ?? [];
    assert.equal(entries[0].detail, detail);
    assert.deepEqual(entries.map(expandedText), [detail, null, long, null]);
  });
});
