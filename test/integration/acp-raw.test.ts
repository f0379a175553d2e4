// `ironbees acp` driven by a client an editor might be, without the ACP SDK: raw newline-delimited
// JSON-RPC over the built CLI's stdio, real dotnet on a copy of the calculator fixture, the real
// Anthropic SDK against a local fake Messages API. A rejected plan's reason is the next prompt;
// session/cancel interrupts a run, which session/load (in a new process) then resumes to green.
// Every stdout line must be a JSON-RPC message.

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { REPO_ROOT, copyFixture, ensureCliBuilt, readRunFile, removeDir } from '../support/cli-harness';
import type { FakeRequest } from '../support/fake-anthropic';
import { startRawAcp } from '../support/acp-raw-client';
import type { RawAcpClient } from '../support/acp-raw-client';
import type { CodingState } from '../../src/core/model';

const SOURCE = 'src/Calculator/Calculator.cs';
const ORIGINAL = readFileSync(path.join(REPO_ROOT, 'test/fixtures/calculator', SOURCE), 'utf8');
const FEEDBACK = 'Keep the guard clause for zero; change only the operator.';

const PLAN = {
  spec: 'Calc.Divide returns a / b.',
  plan: {
    summary: 'Fix the wrong operator in Calc.Divide.',
    steps: [{ number: 1, description: 'Return a / b', actionType: 'MODIFY', filePath: SOURCE, rationale: 'The test expects 6 / 3 = 2' }],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

function fixTurns(): ReturnType<typeof toolUse>[] {
  return [
    toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' }),
    toolUse('submit_changes', { summary: 'Divide now divides.' }),
  ];
}

type Permission = { sessionId: string; toolCall: { toolCallId: string }; options: Array<{ optionId: string; kind: string }> };

function textOf(update: Record<string, unknown>): string {
  return (update.content as { text: string }).text;
}

/** What the fake model got back for one of its tool calls: [is_error, the text]. */
function toolResult(requests: readonly FakeRequest[], toolUseId: string): [boolean, string] {
  for (const request of requests) {
    for (const message of request.body.messages) {
      if (typeof message.content === 'string') continue;
      for (const block of message.content) {
        if (block.type !== 'tool_result' || block.tool_use_id !== toolUseId) continue;
        const content = block.content as string | Array<{ type: string; text?: string }>;
        return [block.is_error === true, typeof content === 'string' ? content : content.map((part) => part.text ?? '').join('')];
      }
    }
  }
  return [false, '<no tool_result>'];
}

/** read_file's page of a whole file: a header, then each line numbered. */
function numberedPage(rel: string, text: string): string {
  const lines = text.slice(0, -1).split('\n');
  return [`${rel} (lines 1-${lines.length} of ${lines.length})`, ...lines.map((line, i) => `${String(i + 1).padStart(6)}\t${line}`)].join(
    '\n',
  );
}

function persisted(workspace: string, runId: string): CodingState {
  return (JSON.parse(readRunFile(workspace, runId, 'state.json')) as { codingState: CodingState }).codingState;
}

function runOf(workspace: string, sessionId: string): string {
  return (JSON.parse(readFileSync(path.join(workspace, '.ironbees', 'acp-sessions', `${sessionId}.json`), 'utf8')) as { runId: string })
    .runId;
}

describe('ironbees acp: a raw JSON-RPC client (real dotnet, fake Messages API)', function () {
  this.timeout(600_000);
  let fake: FakeAnthropic;
  let workspace: string;
  let env: Record<string, string>;
  const clients: RawAcpClient[] = [];

  before(async () => {
    ensureCliBuilt();
    fake = await startFakeAnthropic();
    workspace = copyFixture('calculator');
    // Something the workspace defines: untrusted (no --trust-workspace), it is ignored and said so on stderr.
    mkdirSync(path.join(workspace, '.ironbees'), { recursive: true });
    writeFileSync(path.join(workspace, '.ironbees', 'mcp.json'), JSON.stringify({ mcpServers: { x: { command: 'false' } } }));
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url };
  });
  after(async () => {
    for (const client of clients) client.child.kill();
    await fake.close();
    removeDir(workspace);
  });

  it('reject with feedback, approve, end_turn green; cancel keeps the run; session/load resumes it; stdout is protocol only', async () => {
    const permissions: Permission[] = [];
    const fileAtDiffPermission: string[] = [];
    const answers: Array<(request: Permission) => unknown> = [
      () => ({ outcome: { outcome: 'selected', optionId: 'reject' } }),
      () => ({ outcome: { outcome: 'selected', optionId: 'approve' } }),
      () => ({ outcome: { outcome: 'selected', optionId: 'approve' } }),
      // The third prompt's plan: the person cancels the turn, and answers the open request "cancelled" (ACP).
      (request) => {
        first.notify('session/cancel', { sessionId: request.sessionId });
        return { outcome: { outcome: 'cancelled' } };
      },
    ];
    const first = startRawAcp(['--workspace', workspace], env, (method, params) => {
      assert.equal(method, 'session/request_permission', 'no fs/* request: the client offered no fs capability');
      const request = params as unknown as Permission;
      permissions.push(request);
      if (request.toolCall.toolCallId.startsWith('edit-')) fileAtDiffPermission.push(readFileSync(path.join(workspace, SOURCE), 'utf8'));
      return answers[permissions.length - 1](request);
    });
    clients.push(first);

    const init = await first.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    assert.deepEqual(init.result, {
      protocolVersion: 1,
      agentCapabilities: { loadSession: true, promptCapabilities: { image: false, audio: false, embeddedContext: true } },
      agentInfo: {
        name: 'ironbees',
        title: 'Ironbees',
        version: (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version,
      },
      authMethods: [],
    });
    const created = await first.request('session/new', { cwd: workspace, mcpServers: [] });
    const sessionId = (created.result as { sessionId: string }).sessionId;
    assert.match(sessionId, /^ib-[0-9a-f-]{36}$/);

    // 1. The plan is rejected: the turn ends, asking why.
    fake.enqueue(toolUse('submit_plan', PLAN, { text: 'It multiplies instead of dividing.' }), toolUse('submit_plan', PLAN));
    const rejected = await first.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Fix the failing Calculator test' }],
    });
    assert.deepEqual(rejected.result, { stopReason: 'end_turn' });
    assert.deepEqual(
      permissions.map((p) => [p.toolCall.toolCallId.split('-')[0], p.options.map((o) => `${o.optionId}:${o.kind}`)]),
      [['plan', ['approve:allow_once', 'reject:reject_once']]],
    );
    const afterReject = first.updates(sessionId);
    assert.deepEqual(
      afterReject.find((u) => u.sessionUpdate === 'plan'),
      {
        sessionUpdate: 'plan',
        entries: [{ content: `Return a / b (MODIFY ${SOURCE})`, priority: 'low', status: 'pending' }],
      },
    );
    const words = afterReject.filter((u) => u.sessionUpdate === 'agent_message_chunk').map(textOf);
    // The model's words as they stream (in chunks), then the question.
    assert.equal(
      words.join(''),
      'It multiplies instead of dividing.\nPlan rejected. What should change? Your next message goes to the planner.\n',
    );

    // 2. The reason is the next prompt: it reaches the planner; plan and diff approved; green.
    fake.enqueue(...fixTurns());
    const seen = first.updates(sessionId).length;
    const fixed = await first.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: FEEDBACK }] });
    assert.deepEqual(fixed.result, { stopReason: 'end_turn' });
    const planners = fake.requests.filter((r) => r.body.tools?.some((t) => t.name === 'submit_plan'));
    assert.ok(JSON.stringify(planners.at(-1)?.body.messages).includes(FEEDBACK), 'the reason reached the planner');
    assert.deepEqual(fileAtDiffPermission, [ORIGINAL], 'the file was unchanged while the diff was being approved');
    const runId = runOf(workspace, sessionId);
    const done = persisted(workspace, runId);
    assert.equal(done.currentNode, 'SUCCESS');
    assert.equal(done.testResult?.failed, 0);
    assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /return a \/ b;/);
    const turn2 = first.updates(sessionId).slice(seen);
    const edit = turn2.find((u) => u.sessionUpdate === 'tool_call' && u.kind === 'edit');
    assert.deepEqual(edit?.content, [
      { type: 'diff', path: path.join(workspace, SOURCE), oldText: ORIGINAL, newText: ORIGINAL.replace('return a * b;', 'return a / b;') },
    ]);
    const messages = turn2.filter((u) => u.sessionUpdate === 'agent_message_chunk').map(textOf);
    const test = done.testResult;
    assert.ok(test);
    assert.ok(
      messages.includes(
        `Validation (attempt 1): build succeeded; tests: ${test.passed} passed, 0 failed, ${test.skipped} skipped of ${test.total}\n`,
      ),
      JSON.stringify(messages),
    );
    assert.equal(
      messages.at(-1),
      `Done: the changes are applied and the build and tests are green (run ${runId}). The hand-off is in ${path.join(workspace, '.ironbees', 'runs', runId, 'HANDOFF.md')}.\n`,
    );

    // 3. Cancelled at the plan: the turn ends "cancelled", the run is kept at its gate.
    writeFileSync(path.join(workspace, SOURCE), ORIGINAL);
    fake.enqueue(toolUse('submit_plan', PLAN));
    const cancelled = await first.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Fix it again' }] });
    assert.deepEqual(cancelled.result, { stopReason: 'cancelled' });
    const kept = runOf(workspace, sessionId);
    assert.notEqual(kept, runId);
    assert.equal(persisted(workspace, kept).currentNode, 'WAIT_PLAN_APPROVAL');
    assert.equal(await first.close(), 0);
    assert.deepEqual(first.strayStdout, [], 'stdout carries protocol messages only');
    assert.match(
      first.stderr(),
      /Ignored \.ironbees\/mcp\.json \(MCP servers[^)]*\)\): this workspace is not trusted; pass --trust-workspace to use it\./,
    );

    // 4. A new process loads the session: the request is replayed, and the next prompt resumes the run to green.
    const resumedPermissions: Permission[] = [];
    const second = startRawAcp(['--workspace', workspace], env, (_method, params) => {
      resumedPermissions.push(params as unknown as Permission);
      return { outcome: { outcome: 'selected', optionId: 'approve' } };
    });
    clients.push(second);
    await second.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const loaded = await second.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    assert.deepEqual(loaded.result, {});
    const replay = second.updates(sessionId);
    assert.deepEqual(replay[0], { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'Fix it again' } });
    assert.equal(textOf(replay.at(-1) ?? {}), `Run ${kept} is at WAIT_PLAN_APPROVAL. Send a message to continue it.\n`);
    fake.enqueue(...fixTurns());
    const resumed = await second.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'continue' }] });
    assert.deepEqual(resumed.result, { stopReason: 'end_turn' });
    assert.deepEqual(
      resumedPermissions.map((p) => p.toolCall.toolCallId.split('-')[0]),
      ['plan', 'edit'],
    );
    assert.equal(persisted(workspace, kept).currentNode, 'SUCCESS');
    assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /return a \/ b;/);
    assert.equal(await second.close(), 0);
    assert.deepEqual(second.strayStdout, []);
  });

  it("a client offering fs/read_text_file: the agents read the editor's unsaved buffer, the diff's before is it, never a path outside", async () => {
    const buffered = copyFixture('calculator');
    const outside = path.join(path.dirname(buffered), `${path.basename(buffered)}-outside.txt`);
    writeFileSync(outside, 'not for the agent\n');
    const source = path.join(buffered, SOURCE);
    // The person's unsaved edit in the editor: a comment the disk does not have.
    const buffer = ORIGINAL.replace('namespace Calculator;\n', 'namespace Calculator;\n\n// Unsaved: Divide must divide.\n');
    assert.notEqual(buffer, ORIGINAL);
    const fixedBuffer = buffer.replace('return a * b;', 'return a / b;');
    const asked: string[] = [];
    const written: Array<Record<string, unknown>> = [];
    let sessionId = '';
    const client = startRawAcp(['--workspace', buffered], env, (method, params) => {
      if (method === 'fs/read_text_file') {
        asked.push(params.path as string);
        return { content: params.path === source ? buffer : readFileSync(params.path as string, 'utf8') };
      }
      if (method === 'fs/write_text_file') {
        written.push(params);
        writeFileSync(params.path as string, params.content as string);
        return {};
      }
      assert.equal(method, 'session/request_permission');
      return { outcome: { outcome: 'selected', optionId: 'approve' } };
    });
    clients.push(client);
    try {
      await client.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } });
      sessionId = ((await client.request('session/new', { cwd: buffered, mcpServers: [] })).result as { sessionId: string }).sessionId;
      const before = fake.requests.length;
      fake.enqueue(
        toolUse('submit_plan', PLAN),
        toolUse('read_file', { path: SOURCE }, { id: 'toolu_read_buffer' }),
        toolUse('read_file', { path: `../${path.basename(outside)}` }, { id: 'toolu_read_outside' }),
        ...fixTurns(),
      );
      const done = await client.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'Fix the failing Calculator test' }],
      });
      assert.deepEqual(done.result, { stopReason: 'end_turn' });
      const requests = fake.requests.slice(before);

      assert.deepEqual(toolResult(requests, 'toolu_read_buffer'), [false, numberedPage(SOURCE, buffer)]);
      const [refused, refusal] = toolResult(requests, 'toolu_read_outside');
      assert.equal(refused, true);
      const outsideRel = `../${path.basename(outside)}`;
      assert.ok(
        refusal.includes(
          `Refused path "${outsideRel}": it leads outside the workspace; use a path relative to the workspace root, e.g. "src/App/Program.cs"`,
        ),
        refusal,
      );
      assert.deepEqual([...new Set(asked)], [source], 'the client is asked only for the workspace file the agents read');

      const updates = client.updates(sessionId);
      const edit = updates.find((u) => u.sessionUpdate === 'tool_call' && u.kind === 'edit');
      assert.deepEqual(edit?.content, [{ type: 'diff', path: source, oldText: buffer, newText: fixedBuffer }]);
      const messages = updates.filter((u) => u.sessionUpdate === 'agent_message_chunk').map(textOf);
      const named =
        `${SOURCE} has unsaved changes in the editor: Ironbees reads and edits that text. The build and tests use the saved files, ` +
        'so an approved edit to it is written through the editor, your changes included; otherwise save it before validation.\n';
      assert.equal(messages.filter((m) => m === named).length, 1, JSON.stringify(messages));
      assert.ok(
        updates.indexOf(updates.find((u) => u.sessionUpdate === 'agent_message_chunk' && textOf(u) === named) ?? {}) <
          updates.indexOf(edit ?? {}),
      );
      assert.deepEqual(
        messages.filter((m) => m.startsWith('Validation used the saved copy')),
        [],
        "the approved edit was written through the editor: validation built the buffer's text",
      );
      assert.deepEqual(written, [{ sessionId, path: source, content: fixedBuffer }]);
      assert.equal(readFileSync(source, 'utf8'), fixedBuffer);
      const state = persisted(buffered, runOf(buffered, sessionId));
      assert.equal(state.currentNode, 'SUCCESS');
      assert.equal(state.testResult?.failed, 0);
      assert.equal(await client.close(), 0);
      assert.deepEqual(client.strayStdout, []);
    } finally {
      removeDir(buffered);
      removeDir(outside);
    }
  });
});
