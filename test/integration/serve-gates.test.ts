// `ironbees serve`: gates answered over HTTP beyond plain approval (real CLI, real dotnet, real SDK →
// the fake Messages API). A diff gate per hunk: one hunk accepted, the other rejected with a reason;
// exactly the accepted hunk reaches the disk, and the reason reaches the coder's next request; the
// coder's next proposal is approved and the run ends in SUCCESS. An escalation answered with
// guidance: the coder's next request carries it, and the run ends in SUCCESS.

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { splitHunks } from '../../src/core/workspace/diff';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { REPO_ROOT, ensureCliBuilt, removeDir } from '../support/cli-harness';
import { startServer, stopServer } from '../support/serve-harness';
import type { Server } from '../support/serve-harness';
import { atNode, followSse } from '../support/sse-client';
import type { SseEvent } from '../support/sse-client';
import { AFTER_REVIEW, FIXED, ORIGINAL, REASON, SOURCE, plainFixTurns, twoHunkTurns } from '../support/two-hunk-review';

const TOKEN = 'serve-hunks-token-0123456789abcdef';
const AUTH = { authorization: `Bearer ${TOKEN}` };

interface GateState {
  currentNode: string;
  iterationCount: number;
  codeDiffs: Array<{ filePath: string; diffText: string }>;
}

const diffGate =
  (iteration: number) =>
  (event: SseEvent): boolean => {
    if (!atNode('WAIT_DIFF_APPROVAL')(event)) return false;
    return (JSON.parse(event.data) as GateState).iterationCount === iteration;
  };

describe('ironbees serve: a diff gate answered per hunk, an escalation answered with guidance, over HTTP', function () {
  this.timeout(900_000);
  let fake: FakeAnthropic;
  let workspace: string;
  let server: Server;

  before(async () => {
    ensureCliBuilt();
    fake = await startFakeAnthropic();
    workspace = mkdtempSync(path.join(tmpdir(), 'ironbees-serve-hunks-'));
    cpSync(path.join(REPO_ROOT, 'test', 'fixtures', 'calculator'), workspace, {
      recursive: true,
      filter: (src) => !/[\\/](bin|obj|TestResults)([\\/]|$)/.test(src),
    });
    server = await startServer(workspace, { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url, IRONBEES_SERVE_TOKEN: TOKEN });
  });
  after(async () => {
    if (server) await stopServer(server);
    await fake?.close();
    removeDir(workspace);
  });

  const post = (url: string, body: unknown): Promise<Response> =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...AUTH }, body: JSON.stringify(body) });

  it('applies only the accepted hunk, tells the coder why the other was rejected, and ends in SUCCESS', async () => {
    fake.enqueue(...twoHunkTurns(), ...plainFixTurns());
    const started = await post(`${server.url}/api/runs`, { request: 'Fix the failing Calculator test', workspace });
    assert.equal(started.status, 201);
    const { runId } = (await started.json()) as { runId: string };
    const events = await followSse(`${server.url}/api/runs/${runId}/events`, AUTH);
    await events.waitFor(atNode('WAIT_PLAN_APPROVAL'));
    assert.equal((await post(`${server.url}/api/runs/${runId}/plan`, { approved: true })).status, 200);

    const gate = JSON.parse((await events.waitFor(diffGate(1))).data) as GateState;
    assert.deepEqual(
      gate.codeDiffs.map((d) => d.filePath),
      [SOURCE],
    );
    const hunks = splitHunks(gate.codeDiffs[0].diffText);
    assert.equal(hunks.length, 2, gate.codeDiffs[0].diffText);
    assert.match(hunks[1], /^\+ {8}return \(int\)\(\(double\)a \/ b\);$/m);
    // A reason keyed by a hunk that does not exist is refused before anything is applied.
    const badHunk = await post(`${server.url}/api/runs/${runId}/diffs`, {
      approved: true,
      files: [{ filePath: SOURCE, accepted: true, rejectedHunks: [2] }],
    });
    assert.equal(badHunk.status, 409);
    assert.match(((await badHunk.json()) as { error: string }).error, /has 2 hunk\(s\), numbered from 0; there is no hunk 2/);

    const asked = fake.requests.length;
    const answered = await post(`${server.url}/api/runs/${runId}/diffs`, {
      approved: true,
      files: [{ filePath: SOURCE, accepted: true, rejectedHunks: [1], hunkReasons: { '1': REASON } }],
    });
    assert.equal(answered.status, 200, await answered.clone().text());

    // The accepted half leaves Divide failing: the coder is asked again, and told about hunk 2.
    const second = JSON.parse((await events.waitFor(diffGate(2))).data) as GateState;
    assert.equal(readFileSync(path.join(workspace, SOURCE), 'utf8'), AFTER_REVIEW, 'exactly hunk 1 on disk');
    const next = JSON.stringify(fake.requests[asked].body);
    const header = hunks[1].split('\n')[0];
    assert.ok(
      next.includes(`- ${SOURCE}: hunk 2 (${header}) was rejected and not applied. Reason: ${REASON}`),
      `the coder's next request names hunk 2 and its reason: ${next.slice(0, 4000)}`,
    );
    assert.ok(!JSON.stringify(fake.requests.slice(0, asked).map((r) => r.body)).includes(REASON), 'no request before the answer had it');
    assert.equal(splitHunks(second.codeDiffs[0].diffText).length, 1);

    assert.equal((await post(`${server.url}/api/runs/${runId}/diffs`, { approved: true })).status, 200);
    await events.waitFor(atNode('SUCCESS'));
    assert.equal(readFileSync(path.join(workspace, SOURCE), 'utf8'), FIXED);
    assert.notEqual(FIXED, ORIGINAL.replace('return a * b;', 'return a / b;'), 'the accepted hunk stays');
    assert.equal(fake.pending, 0, 'every scripted turn was used');
  });

  it('an escalation answered with guidance over HTTP: the coder reads it and the run ends in SUCCESS', async () => {
    writeFileSync(path.join(workspace, SOURCE), ORIGINAL);
    const guidance = 'Divide must divide: use the / operator.';
    const edit = (from: string, to: string) =>
      toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: from, new_str: to });
    fake.enqueue(
      ...twoHunkTurns().slice(0, 1),
      edit('return a * b;', 'return a + b;'),
      toolUse('submit_changes', { summary: 'Tried +.' }),
      edit('return a + b;', 'return a / b;'),
      toolUse('submit_changes', { summary: 'Used /.' }),
    );
    const started = await post(`${server.url}/api/runs`, {
      request: 'Fix the failing Calculator test',
      workspace,
      options: { maxIterations: 1, planApproval: 'never', diffApproval: 'never' },
    });
    assert.equal(started.status, 201);
    const { runId } = (await started.json()) as { runId: string };
    const events = await followSse(`${server.url}/api/runs/${runId}/events`, AUTH);
    await events.waitFor(atNode('WAIT_HUMAN'));
    assert.equal((await post(`${server.url}/api/runs/${runId}/diffs`, { approved: true })).status, 409, 'not the gate it waits at');
    assert.equal((await post(`${server.url}/api/runs/${runId}/escalation`, { action: 'continue', guidance: '', extra: 1 })).status, 400);
    const asked = fake.requests.length;
    const answered = await post(`${server.url}/api/runs/${runId}/escalation`, { action: 'continue', guidance, additionalIterations: 1 });
    assert.equal(answered.status, 200, await answered.clone().text());
    assert.deepEqual(await answered.json(), { runId, decision: 'CONTINUE' });
    await events.waitFor(atNode('SUCCESS'));
    assert.ok(JSON.stringify(fake.requests[asked].body).includes(guidance), 'the coder read the guidance');
    assert.equal(readFileSync(path.join(workspace, SOURCE), 'utf8'), ORIGINAL.replace('return a * b;', 'return a / b;'));
    assert.equal(fake.pending, 0);
  });
});
