// One ACP session over a scripted orchestrator: which decision each permission answer and each
// follow-up prompt becomes, what the client is shown, and which writes go through the editor.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { RequestPermissionRequest, SessionUpdate } from '@agentclientprotocol/sdk' with { 'resolution-mode': 'import' };
import { AcpSession } from '../../../src/acp/session';
import { EditorWrites, hostThroughEditor } from '../../../src/acp/editor-fs';
import { EditorReads } from '../../../src/acp/editor-reads';
import type { CodingState, WorkflowContext } from '../../../src/core/model';
import { FakeOrchestrator, working } from '../cli/fakes';
import { CREATE_EDIT, MODIFY_EDIT, PLAN, makeState } from '../cli/fixtures';
import { createMemoryHost } from '../../support/memory-host';

const ROOT = path.resolve('/ws');
const CONTEXT: WorkflowContext = {
  workspaceRoot: ROOT,
  maxIterations: 5,
  approval: { plan: 'always', diffs: 'always' },
  timeouts: { buildMs: 1, testMs: 1 },
};
const NOOP = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function session(
  orchestrator: FakeOrchestrator,
  answers: string[],
  writes = new EditorWrites(),
  reads = new EditorReads(NOOP),
): { session: AcpSession; updates: SessionUpdate[]; asked: RequestPermissionRequest[] } {
  const updates: SessionUpdate[] = [];
  const asked: RequestPermissionRequest[] = [];
  const made = new AcpSession({
    sessionId: 's1',
    workspaceRoot: ROOT,
    orchestrator,
    writes,
    reads,
    logger: NOOP,
    context: CONTEXT,
    client: {
      update: async (_id, update) => {
        updates.push(update);
      },
      requestPermission: async (request) => {
        asked.push(request);
        const answer = answers.shift();
        return answer === undefined ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId: answer } };
      },
    },
  });
  return { session: made, updates, asked };
}

const texts = (updates: SessionUpdate[]): string[] =>
  updates.flatMap((update) =>
    update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' ? [update.content.text] : [],
  );

describe('acp: a session drives a run', () => {
  it('a rejected plan ends the turn; the next prompt is the REJECT feedback; approvals go on to the end', async () => {
    const orchestrator = new FakeOrchestrator(async function* (run) {
      yield makeState({ currentNode: 'WAIT_PLAN_APPROVAL', plan: PLAN });
      assert.equal((await run.decision()).type, 'REJECT');
      yield makeState({ currentNode: 'WAIT_PLAN_APPROVAL', plan: PLAN, iterationCount: 0 });
      await run.decision();
      yield makeState({ currentNode: 'WAIT_DIFF_APPROVAL', plan: PLAN, codeDiffs: [MODIFY_EDIT, CREATE_EDIT], iterationCount: 1 });
      await run.decision();
      yield makeState({ currentNode: 'SUCCESS', plan: PLAN, iterationCount: 1 });
    });
    const { session: s, updates, asked } = session(orchestrator, ['reject', 'approve', 'reject', 'approve']);
    assert.equal(await s.prompt('Fix Add'), 'end_turn');
    assert.equal(orchestrator.request, 'Fix Add');
    assert.deepEqual(orchestrator.decisions, []);
    assert.equal(texts(updates).at(-1), 'Plan rejected. What should change? Your next message goes to the planner.\n');

    assert.equal(await s.prompt('Keep the helper as it is.'), 'end_turn');
    assert.deepEqual(orchestrator.decisions, [
      { type: 'REJECT', feedback: 'Keep the helper as it is.' },
      { type: 'APPROVE' },
      {
        type: 'APPROVE',
        files: [
          { filePath: 'src/Calc.cs', accepted: false },
          { filePath: 'tests/AddTests.cs', accepted: true },
        ],
      },
    ]);
    assert.deepEqual(
      asked.map((request) => request.toolCall.toolCallId),
      ['plan-run-1-0', 'plan-run-1-0', 'edit-run-1-1-0', 'edit-run-1-1-1'],
    );
    const rejected = updates.find((update) => update.sessionUpdate === 'tool_call_update' && update.toolCallId === 'edit-run-1-1-0');
    assert.deepEqual(rejected, { sessionUpdate: 'tool_call_update', toolCallId: 'edit-run-1-1-0', status: 'failed' });
  });

  it('"apply all" answers every file left without asking; every file rejected waits for the reason', async () => {
    const all = new FakeOrchestrator(async function* (run) {
      yield makeState({ currentNode: 'WAIT_DIFF_APPROVAL', codeDiffs: [MODIFY_EDIT, CREATE_EDIT], iterationCount: 1 });
      await run.decision();
      yield makeState({ currentNode: 'SUCCESS' });
    });
    const first = session(all, ['approve_all']);
    assert.equal(await first.session.prompt('x'), 'end_turn');
    assert.equal(first.asked.length, 1);
    assert.deepEqual(all.decisions, [
      {
        type: 'APPROVE',
        files: [
          { filePath: 'src/Calc.cs', accepted: true },
          { filePath: 'tests/AddTests.cs', accepted: true },
        ],
      },
    ]);

    const none = new FakeOrchestrator(async function* (run) {
      yield makeState({ currentNode: 'WAIT_DIFF_APPROVAL', codeDiffs: [MODIFY_EDIT], iterationCount: 1 });
      await run.decision();
      yield makeState({ currentNode: 'SUCCESS' });
    });
    const second = session(none, ['reject']);
    assert.equal(await second.session.prompt('x'), 'end_turn');
    assert.deepEqual(none.decisions, []);
    assert.equal(await second.session.prompt('Do not touch Calc.cs'), 'end_turn');
    assert.deepEqual(none.decisions, [{ type: 'REJECT', feedback: 'Do not touch Calc.cs' }]);
  });

  it('at an escalation the next prompt is guidance (CONTINUE), or "stop"', async () => {
    const escalated = (): FakeOrchestrator =>
      new FakeOrchestrator(async function* (run) {
        yield makeState({ currentNode: 'WAIT_HUMAN', metadata: { handoffPath: '/ws/HANDOFF.md' } });
        const decision = await run.decision();
        yield makeState({ currentNode: decision.type === 'STOP' ? 'CANCELLED' : 'SUCCESS' });
      });
    const guided = escalated();
    const one = session(guided, []);
    assert.equal(await one.session.prompt('x'), 'end_turn');
    assert.equal(
      texts(one.updates).at(-1),
      'I need a person to continue (run run-1). The hand-off is in /ws/HANDOFF.md. Reply with guidance to continue, or "stop" to end the run.\n',
    );
    await one.session.prompt('Use decimal, not int.');
    assert.deepEqual(guided.decisions, [{ type: 'CONTINUE', guidance: 'Use decimal, not int.', additionalIterations: 2 }]);

    const stopped = escalated();
    const two = session(stopped, []);
    await two.session.prompt('x');
    await two.session.prompt(' Stop ');
    assert.deepEqual(stopped.decisions, [{ type: 'STOP' }]);
  });

  it('a permission answered "cancelled" ends the turn cancelled; the next prompt resumes the same run', async () => {
    const orchestrator = new FakeOrchestrator(async function* (run) {
      yield makeState({ currentNode: 'WAIT_PLAN_APPROVAL', plan: PLAN });
      await run.decision();
      yield makeState({ currentNode: 'SUCCESS', plan: PLAN });
    });
    const { session: s } = session(orchestrator, []);
    assert.equal(await s.prompt('Fix Add'), 'cancelled');
    assert.equal(orchestrator.resumedId, null);
    assert.equal(await s.prompt('go on'), 'cancelled');
    assert.equal(orchestrator.resumedId, 'run-1', 'the second prompt resumed the run instead of starting another');
  });

  it('session/cancel while a step works: the run is interrupted (its signal aborts), the turn ends cancelled', async () => {
    let aborted = false;
    let started: () => void = () => undefined;
    const planning = new Promise<void>((resolve) => (started = resolve));
    const orchestrator = new FakeOrchestrator(async function* (_run, signal) {
      yield makeState({ currentNode: 'PLAN' });
      started();
      await working(signal);
      aborted = signal.aborted;
      yield makeState({ currentNode: 'WAIT_PLAN_APPROVAL', plan: PLAN });
    });
    const { session: s, asked } = session(orchestrator, ['approve']);
    const turn = s.prompt('Fix Add');
    await planning;
    s.cancel();
    assert.equal(await turn, 'cancelled');
    assert.equal(aborted, true);
    assert.deepEqual(asked, [], 'nothing is asked after the cancel');
  });

  it('writes go through the editor only for the approved files, only while VALIDATE applies them', async () => {
    const written: Array<[string, string, string]> = [];
    const writes = new EditorWrites();
    writes.useClient(async (sessionId, absPath, content) => {
      written.push([sessionId, absPath, content]);
    });
    const host = hostThroughEditor(createMemoryHost({}, ROOT), { reads: new EditorReads(NOOP), writes });
    const calc = path.join(ROOT, 'src/Calc.cs');
    const orchestrator = new FakeOrchestrator(async function* (run) {
      yield makeState({ currentNode: 'WAIT_DIFF_APPROVAL', codeDiffs: [MODIFY_EDIT, CREATE_EDIT], iterationCount: 1 });
      await run.decision();
      yield makeState({ currentNode: 'VALIDATE', iterationCount: 1 });
      // What VALIDATE's apply does: the approved file, the run's own record, and a file not approved.
      await host.fs.writeFile(calc, 'a + b\n');
      await host.fs.writeFile(path.join(ROOT, '.ironbees/runs/run-1/journal.json'), '{}');
      await host.fs.writeFile(path.join(ROOT, 'tests/AddTests.cs'), 'x\n');
      await host.fs.writeFile(calc, new Uint8Array([0xef, 0xbb, 0xbf, 0x61]));
      yield makeState({ currentNode: 'SUCCESS', iterationCount: 1 });
    });
    const { session: s } = session(orchestrator, ['approve', 'reject'], writes);
    assert.equal(await s.prompt('x'), 'end_turn');
    assert.deepEqual(written, [['s1', calc, 'a + b\n']]);
    assert.equal(await host.fs.readFile(path.join(ROOT, '.ironbees/runs/run-1/journal.json')).then((b) => b?.length), 2);
    // Text with a BOM (which an editor might drop) went to the disk: it is not among the editor's writes.
    assert.equal(new TextDecoder().decode((await host.fs.readFile(calc)) ?? new Uint8Array()).replace('\ufeff', ''), 'a');
    await host.fs.writeFile(calc, 'after\n');
    assert.equal(written.length, 1, 'after the apply, writes go to the disk');
  });
});

describe('acp: reads through the editor name unsaved buffers', () => {
  const VALIDATED = {
    iterationCount: 1,
    buildResult: { success: true, errors: [], warnings: [], durationMs: 1 },
    testResult: { success: true, total: 1, passed: 1, failed: 0, skipped: 0, failures: [], durationMs: 1 },
  };

  /** A turn whose run reads two files through the editor (one unsaved), then VALIDATE writes `apply`. */
  async function turn(apply: string[], writeThrough: boolean): Promise<string[]> {
    const asked: string[] = [];
    const reads = new EditorReads(NOOP);
    reads.useClient(async (_sessionId, absPath) => {
      asked.push(absPath);
      return { content: absPath.endsWith('Calc.cs') ? 'a * b\n' : 'x\n' };
    });
    const writes = new EditorWrites();
    if (writeThrough) writes.useClient(async () => undefined);
    const host = hostThroughEditor(createMemoryHost({ 'src/Calc.cs': 'a - b\n', 'tests/T.cs': 'x\n' }, ROOT), { reads, writes });
    const calc = path.join(ROOT, 'src/Calc.cs');
    const orchestrator = new FakeOrchestrator(async function* (run) {
      yield makeState({ currentNode: 'PLAN' });
      for (let i = 0; i < 2; i++) await host.fs.readFile(calc, { editorText: true });
      await host.fs.readFile(path.join(ROOT, 'tests/T.cs'), { editorText: true });
      yield makeState({ currentNode: 'WAIT_DIFF_APPROVAL', codeDiffs: [MODIFY_EDIT], iterationCount: 1 });
      await run.decision();
      yield makeState({ currentNode: 'VALIDATE', iterationCount: 1 });
      for (const rel of apply) await host.fs.writeFile(path.join(ROOT, rel), 'a / b\n');
      yield makeState({ currentNode: 'DECIDE', ...VALIDATED });
      yield makeState({ currentNode: 'SUCCESS', ...VALIDATED });
    });
    const { session: s, updates } = session(orchestrator, ['approve'], writes, reads);
    assert.equal(await s.prompt('x'), 'end_turn');
    assert.deepEqual(asked, [calc, calc, path.join(ROOT, 'tests/T.cs')]);
    return texts(updates);
  }

  it('an unsaved buffer is named once; written through the editor, validation built it', async () => {
    assert.deepEqual(await turn(['src/Calc.cs'], true), [
      'src/Calc.cs has unsaved changes in the editor: Ironbees reads and edits that text. The build and tests use the saved files, ' +
        'so an approved edit to it is written through the editor, your changes included; otherwise save it before validation.\n',
      'Validation (attempt 1): build succeeded; tests: 1 passed, 0 failed, 0 skipped of 1\n',
      'Done: the changes are applied and the build and tests are green (run run-1).\n',
    ]);
  });

  it('session/cancel withdraws a read the editor has not answered; the turn ends cancelled', async () => {
    const reads = new EditorReads(NOOP);
    let withdrawn = false;
    let asked: () => void = () => undefined;
    const askedNow = new Promise<void>((resolve) => (asked = resolve));
    reads.useClient(
      (_sessionId, _absPath, signal) =>
        new Promise((_resolve, reject) => {
          asked();
          signal?.addEventListener('abort', () => {
            withdrawn = true;
            reject(new Error('cancelled'));
          });
        }),
    );
    const host = hostThroughEditor(createMemoryHost({ 'src/Calc.cs': 'a - b\n' }, ROOT), { reads, writes: new EditorWrites() });
    const orchestrator = new FakeOrchestrator(async function* () {
      yield makeState({ currentNode: 'PLAN' });
      await host.fs.readFile(path.join(ROOT, 'src/Calc.cs'), { editorText: true });
      yield makeState({ currentNode: 'CODE' });
    });
    const { session: s } = session(orchestrator, [], new EditorWrites(), reads);
    const turn = s.prompt('x');
    await askedNow;
    s.cancel();
    assert.equal(await turn, 'cancelled');
    assert.equal(withdrawn, true);
  });

  it('an unsaved buffer no approved edit wrote through the editor: validation says it used the saved copy', async () => {
    assert.deepEqual(await turn([], false), [
      'src/Calc.cs has unsaved changes in the editor: Ironbees reads and edits that text. The build and tests use the saved files, ' +
        'so an approved edit to it is written to the disk, your changes included; otherwise save it before validation.\n',
      'Validation (attempt 1): build succeeded; tests: 1 passed, 0 failed, 0 skipped of 1\n',
      'Validation used the saved copy of src/Calc.cs: the unsaved changes in the editor were not built or tested.\n',
      'Done: the changes are applied and the build and tests are green (run run-1).\n',
    ]);
  });
});

describe('acp: what the client is shown', () => {
  it('the plan as a `plan` update, the plan tool call, and the validation line', async () => {
    const validated: CodingState = makeState({
      currentNode: 'DECIDE',
      iterationCount: 1,
      buildResult: { success: true, errors: [], warnings: [], durationMs: 1 },
      testResult: { success: true, total: 4, passed: 4, failed: 0, skipped: 0, failures: [], durationMs: 1 },
    });
    const orchestrator = new FakeOrchestrator(async function* (run) {
      yield makeState({ currentNode: 'WAIT_PLAN_APPROVAL', plan: PLAN });
      await run.decision();
      yield makeState({ currentNode: 'VALIDATE', iterationCount: 1 });
      yield validated;
      yield { ...validated, currentNode: 'SUCCESS', plan: PLAN };
    });
    const { session: s, updates } = session(orchestrator, ['approve']);
    assert.equal(await s.prompt('Fix Add'), 'end_turn');
    assert.deepEqual(updates[0], {
      sessionUpdate: 'plan',
      entries: [
        { content: 'Return a + b (MODIFY src/Calc.cs)', priority: 'low', status: 'pending' },
        { content: 'Add a regression test (CREATE tests/AddTests.cs)', priority: 'low', status: 'pending' },
        { content: 'Tidy the helper (REFACTOR src/Calc.cs)', priority: 'low', status: 'pending' },
      ],
    });
    assert.deepEqual(updates[1], {
      sessionUpdate: 'tool_call',
      toolCallId: 'plan-run-1-0',
      title: 'Plan: Fix Add so the failing test passes.',
      kind: 'think',
      status: 'pending',
      content: [
        {
          type: 'content',
          content: {
            type: 'text',
            text: [
              'Fix Add so the failing test passes.',
              '',
              '1. Return a + b — MODIFY src/Calc.cs\n   Add subtracts today',
              '2. Add a regression test — CREATE tests/AddTests.cs\n   ',
              '3. Tidy the helper — REFACTOR src/Calc.cs\n   readability',
            ].join('\n'),
          },
        },
      ],
    });
    assert.deepEqual(texts(updates), [
      'Validation (attempt 1): build succeeded; tests: 4 passed, 0 failed, 0 skipped of 4\n',
      'Done: the changes are applied and the build and tests are green (run run-1).\n',
    ]);
  });
});
