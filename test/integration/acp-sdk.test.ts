// `ironbees acp` driven by the ACP SDK's client side, as an editor built on it would: the built CLI
// spawned as a child, real dotnet on a copy of the calculator fixture, the real Anthropic SDK against
// a local fake Messages API. One whole fix: initialize, session/new, session/prompt; the plan shown
// and approved; the diff shown and approved before the file changes; the file read through the
// client's fs/read_text_file (a buffer with an unsaved edit: the diff is against it) and the approved
// edit written through its fs/write_text_file (the editor's buffer); end_turn; the tests green.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { ReadTextFileRequest, RequestPermissionRequest, SessionUpdate, WriteTextFileRequest } from '@agentclientprotocol/sdk' with {
  'resolution-mode': 'import',
};
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { CLI, REPO_ROOT, copyFixture, ensureCliBuilt, readRunFile, removeDir } from '../support/cli-harness';
import type { CodingState } from '../../src/core/model';

const SOURCE = 'src/Calculator/Calculator.cs';
const ORIGINAL = readFileSync(path.join(REPO_ROOT, 'test/fixtures/calculator', SOURCE), 'utf8');
// The editor's buffer holds an unsaved edit the disk does not have: the agents work on it.
const BUFFER = ORIGINAL.replace('namespace Calculator;\n', 'namespace Calculator;\n\n// Unsaved: Divide must divide.\n');
const FIXED = BUFFER.replace('return a * b;', 'return a / b;');
const PLAN = {
  spec: 'Calc.Divide returns a / b.',
  plan: {
    summary: 'Fix the wrong operator in Calc.Divide.',
    steps: [{ number: 1, description: 'Return a / b', actionType: 'MODIFY', filePath: SOURCE, rationale: 'The test expects 6 / 3 = 2' }],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

describe('ironbees acp: the ACP SDK client drives a whole fix (real dotnet, fake Messages API)', function () {
  this.timeout(420_000);
  let fake: FakeAnthropic;
  let workspace: string;
  let child: ChildProcess | null = null;

  before(async () => {
    ensureCliBuilt();
    fake = await startFakeAnthropic();
    workspace = copyFixture('calculator');
  });
  after(async () => {
    child?.kill();
    await fake.close();
    removeDir(workspace);
  });

  it('plan approved, diff approved before any change, edit written through fs/write_text_file, end_turn, green', async () => {
    const acp = await import('@agentclientprotocol/sdk');
    fake.enqueue(
      toolUse('submit_plan', PLAN, { text: 'It multiplies instead of dividing.' }),
      toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' }),
      toolUse('submit_changes', { summary: 'Divide now divides.' }),
    );
    // No --workspace: the session's cwd is the workspace, as an editor launching the agent sets it.
    const spawned = spawn(process.execPath, [CLI, 'acp'], {
      cwd: workspace,
      env: { ...process.env, NO_COLOR: '1', ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child = spawned;
    let stderr = '';
    spawned.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => spawned.on('close', (code) => resolve(code)));

    const updates: SessionUpdate[] = [];
    const permissions: Array<{ request: RequestPermissionRequest; updatesBefore: SessionUpdate[]; fileThen: string }> = [];
    const writes: WriteTextFileRequest[] = [];
    const reads: ReadTextFileRequest[] = [];
    const editor = acp
      .client({ name: 'test-editor' })
      .onNotification('session/update', ({ params }) => {
        updates.push(params.update);
      })
      .onRequest('session/request_permission', ({ params }) => {
        permissions.push({ request: params, updatesBefore: [...updates], fileThen: readFileSync(path.join(workspace, SOURCE), 'utf8') });
        return { outcome: { outcome: 'selected', optionId: 'approve' } };
      })
      .onRequest('fs/write_text_file', ({ params }) => {
        writes.push(params);
        // The editor saves its buffer.
        writeFileSync(params.path, params.content);
        return {};
      })
      .onRequest('fs/read_text_file', ({ params }) => {
        reads.push(params);
        return { content: params.path === path.join(workspace, SOURCE) ? BUFFER : readFileSync(params.path, 'utf8') };
      });

    const stream = acp.ndJsonStream(
      Writable.toWeb(spawned.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(spawned.stdout) as ReadableStream<Uint8Array>,
    );
    const { sessionId, stopReason } = await editor.connectWith(stream, async (agent) => {
      const init = await agent.request('initialize', {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
      });
      assert.equal(init.protocolVersion, 1);
      assert.equal(init.agentCapabilities?.loadSession, true);
      const session = await agent.request('session/new', { cwd: workspace, mcpServers: [] });
      const response = await agent.request('session/prompt', {
        sessionId: session.sessionId,
        prompt: [{ type: 'text', text: 'Fix the failing Calculator test' }],
      });
      return { sessionId: session.sessionId, stopReason: response.stopReason };
    });
    spawned.stdin.end();
    assert.equal(await exited, 0, stderr);
    assert.equal(stopReason, 'end_turn');

    // The plan arrived as a `plan` update, then was put to the person.
    const [planAsk, diffAsk] = permissions;
    assert.equal(permissions.length, 2);
    assert.match(planAsk.request.toolCall.toolCallId, /^plan-/);
    assert.deepEqual(
      planAsk.request.options.map((option) => option.optionId),
      ['approve', 'reject'],
    );
    assert.deepEqual(
      planAsk.updatesBefore.filter((update) => update.sessionUpdate === 'plan'),
      [{ sessionUpdate: 'plan', entries: [{ content: `Return a / b (MODIFY ${SOURCE})`, priority: 'low', status: 'pending' }] }],
    );
    // The model's words streamed before the plan was asked about.
    const wordsBeforePlan = planAsk.updatesBefore
      .filter((update) => update.sessionUpdate === 'agent_message_chunk')
      .map((update) => (update.content.type === 'text' ? update.content.text : ''))
      .join('');
    assert.equal(wordsBeforePlan, 'It multiplies instead of dividing.\n');

    // The diff was shown as a tool_call with diff content, and approved while the file was unchanged.
    assert.match(diffAsk.request.toolCall.toolCallId, /^edit-/);
    assert.deepEqual(
      diffAsk.request.options.map((option) => `${option.optionId}:${option.kind}`),
      ['approve:allow_once', 'approve_all:allow_always', 'reject:reject_once'],
    );
    const shown = diffAsk.updatesBefore.find(
      (update) => update.sessionUpdate === 'tool_call' && update.toolCallId === diffAsk.request.toolCall.toolCallId,
    );
    assert.deepEqual(shown, {
      sessionUpdate: 'tool_call',
      toolCallId: diffAsk.request.toolCall.toolCallId,
      title: `Edit ${SOURCE}`,
      kind: 'edit',
      status: 'pending',
      content: [{ type: 'diff', path: path.join(workspace, SOURCE), oldText: BUFFER, newText: FIXED }],
      locations: [{ path: path.join(workspace, SOURCE) }],
    });
    assert.equal(diffAsk.fileThen, ORIGINAL, 'nothing on disk before the diff is approved');
    assert.notEqual(BUFFER, ORIGINAL);
    assert.deepEqual(
      diffAsk.updatesBefore.flatMap((update) =>
        update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' && update.content.text.includes('unsaved')
          ? [update.content.text]
          : [],
      ),
      [
        `${SOURCE} has unsaved changes in the editor: Ironbees reads and edits that text. The build and tests use the saved files, ` +
          'so an approved edit to it is written through the editor, your changes included; otherwise save it before validation.\n',
      ],
    );

    // The agents read the file through the editor (the coder's edit, the diff's before, the check before the write): only that file.
    assert.deepEqual(
      [...new Set(reads.map((read) => JSON.stringify(read)))],
      [JSON.stringify({ sessionId, path: path.join(workspace, SOURCE) })],
    );
    // Written through the editor, once, with the approved text.
    assert.deepEqual(writes, [{ sessionId, path: path.join(workspace, SOURCE), content: FIXED }]);
    assert.equal(readFileSync(path.join(workspace, SOURCE), 'utf8'), FIXED);
    assert.ok(
      updates.some(
        (update) =>
          update.sessionUpdate === 'tool_call_update' &&
          update.toolCallId === diffAsk.request.toolCall.toolCallId &&
          update.status === 'completed',
      ),
    );

    // Green, and said so.
    const runId = (
      JSON.parse(readFileSync(path.join(workspace, '.ironbees', 'acp-sessions', `${sessionId}.json`), 'utf8')) as { runId: string }
    ).runId;
    const state = (JSON.parse(readRunFile(workspace, runId, 'state.json')) as { codingState: CodingState }).codingState;
    assert.equal(state.currentNode, 'SUCCESS');
    assert.equal(state.testResult?.failed, 0);
    assert.ok((state.testResult?.passed ?? 0) > 0);
    assert.deepEqual(updates.filter((update) => update.sessionUpdate === 'plan').at(-1), {
      sessionUpdate: 'plan',
      entries: [{ content: `Return a / b (MODIFY ${SOURCE})`, priority: 'low', status: 'completed' }],
    });
  });
});
