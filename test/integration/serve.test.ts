// `ironbees serve` end to end: the real bundled CLI as a server on 127.0.0.1, real dotnet on a copy of
// the calculator fixture, the real Anthropic SDK against the local fake Messages API. A run is
// started, followed (SSE) and approved over HTTP only; the refusals; /metrics; signed webhooks; SSE
// resumption by Last-Event-ID; a server restart that finds the waiting run on disk and resumes it.

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { REPO_ROOT, ensureCliBuilt, removeDir } from '../support/cli-harness';
import { startServer, stopServer } from '../support/serve-harness';
import type { Server } from '../support/serve-harness';
import { atNode, followSse } from '../support/sse-client';
import { startWebhookReceiver } from '../support/webhook-receiver';
import type { ReceivedHook, WebhookReceiver } from '../support/webhook-receiver';

const SOURCE = 'src/Calculator/Calculator.cs';
const ORIGINAL = readFileSync(path.join(REPO_ROOT, 'test/fixtures/calculator', SOURCE));
const TOKEN = 'serve-test-token-0123456789abcdef';
const SECRET = 'notify-secret-for-the-test';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const PLAN = {
  spec: 'Calc.Divide returns a / b.',
  plan: {
    summary: 'Fix the wrong operator in Calc.Divide.',
    steps: [{ number: 1, description: 'Return a / b', actionType: 'MODIFY', filePath: SOURCE, rationale: '6 / 3 = 2' }],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};
const FIX = [
  toolUse('submit_plan', PLAN),
  toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' }),
  toolUse('submit_changes', { summary: 'Fixed.' }),
];

function verify(hook: ReceivedHook): Record<string, unknown> {
  const expected = `sha256=${createHmac('sha256', SECRET).update(hook.body).digest('hex')}`;
  assert.equal(hook.headers['x-ironbees-signature'], expected, 'the signature is the HMAC-SHA256 of the raw body');
  return JSON.parse(hook.body) as Record<string, unknown>;
}

describe('ironbees serve: a run over HTTP (real dotnet, real SDK, fake Messages API)', function () {
  this.timeout(900_000);
  let fake: FakeAnthropic;
  let receiver: WebhookReceiver;
  let root: string;
  let outside: string;
  let workspace: string;
  let env: Record<string, string>;
  let server: Server;

  before(async () => {
    ensureCliBuilt();
    fake = await startFakeAnthropic();
    // The first delivery fails: the notifier retries it.
    receiver = await startWebhookReceiver({ failFirst: 1 });
    root = mkdtempSync(path.join(tmpdir(), 'ironbees-serve-root-'));
    outside = mkdtempSync(path.join(tmpdir(), 'ironbees-serve-outside-'));
    workspace = path.join(root, 'calc');
    cpSync(path.join(REPO_ROOT, 'test', 'fixtures', 'calculator'), workspace, {
      recursive: true,
      filter: (src) => !/[\\/](bin|obj|TestResults)([\\/]|$)/.test(src),
    });
    // A link inside the root to a folder outside it is outside.
    symlinkSync(outside, path.join(root, 'escape'));
    env = {
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: fake.url,
      IRONBEES_SERVE_TOKEN: TOKEN,
      IRONBEES_NOTIFY_SECRET: SECRET,
      IRONBEES_NOTIFY_WEBHOOK: receiver.url,
    };
    server = await startServer(root, env);
  });
  after(async () => {
    if (server) await stopServer(server);
    await fake?.close();
    await receiver?.close();
    removeDir(root);
    removeDir(outside);
  });

  const post = (url: string, body: unknown, headers: Record<string, string> = AUTH): Promise<Response> =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('answers /healthz without a token and refuses: no token, a wrong token, a foreign Origin, a workspace outside the roots, a big body', async () => {
    const health = await fetch(`${server.url}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { ok: true, activeRuns: 0 });
    assert.equal((await fetch(`${server.url}/api/runs`)).status, 401);
    assert.equal((await fetch(`${server.url}/metrics`)).status, 401);
    assert.equal((await fetch(`${server.url}/api/runs`, { headers: { authorization: `Bearer ${TOKEN}x` } })).status, 401);
    assert.equal((await fetch(`${server.url}/api/runs`, { headers: { authorization: `Bearer ${TOKEN.slice(1)}` } })).status, 401);
    assert.equal((await fetch(`${server.url}/api/runs`, { headers: { ...AUTH, origin: 'http://evil.example' } })).status, 403);
    assert.equal((await fetch(`${server.url}/api/runs`, { headers: { ...AUTH, origin: server.url } })).status, 200);
    const start = { request: 'Fix the failing Calculator test' };
    const refusedOutside = await post(`${server.url}/api/runs`, { ...start, workspace: outside });
    assert.equal(refusedOutside.status, 403);
    assert.match(((await refusedOutside.json()) as { error: string }).error, /outside every --workspace-root/);
    assert.equal((await post(`${server.url}/api/runs`, { ...start, workspace: path.join(root, 'escape') })).status, 403);
    assert.equal((await post(`${server.url}/api/runs`, { ...start, workspace: `${root}/calc/../..` })).status, 403);
    assert.equal((await post(`${server.url}/api/runs`, { ...start, workspace }, { origin: 'http://evil.example', ...AUTH })).status, 403);
    assert.equal((await post(`${server.url}/api/runs`, { ...start, workspace, pad: 'x'.repeat(1_100_000) })).status, 413);
    assert.deepEqual(fake.requests, [], 'nothing refused reached the model');
  });

  let runId: string;

  it('starts a run, follows it over SSE and approves the plan and the diffs over HTTP: SUCCESS, counted in /metrics, signed webhooks', async () => {
    fake.enqueue(...FIX);
    const started = await post(`${server.url}/api/runs`, { request: 'Fix the failing Calculator test', workspace });
    assert.equal(started.status, 201);
    runId = ((await started.json()) as { runId: string }).runId;
    const events = await followSse(`${server.url}/api/runs/${runId}/events`, AUTH);
    const plan = JSON.parse((await events.waitFor(atNode('WAIT_PLAN_APPROVAL'))).data) as { plan: { steps: Array<{ filePath: string }> } };
    assert.equal(plan.plan.steps[0].filePath, SOURCE);
    // An answer meant for another gate is refused, and changes nothing.
    assert.equal((await post(`${server.url}/api/runs/${runId}/diffs`, { approved: true })).status, 409);
    const approved = await post(`${server.url}/api/runs/${runId}/plan`, { approved: true });
    assert.equal(approved.status, 200, await approved.clone().text());
    const diffs = JSON.parse((await events.waitFor(atNode('WAIT_DIFF_APPROVAL'))).data) as { codeDiffs: Array<{ filePath: string }> };
    assert.deepEqual(
      diffs.codeDiffs.map((d) => d.filePath),
      [SOURCE],
    );
    assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /a \* b/, 'nothing on disk before the diffs are approved');
    assert.equal(
      (await post(`${server.url}/api/runs/${runId}/diffs`, { approved: true, files: [{ filePath: SOURCE, accepted: true }] })).status,
      200,
    );
    const done = JSON.parse((await events.waitFor(atNode('SUCCESS'))).data) as { testResult: { failed: number } };
    assert.equal(done.testResult.failed, 0);
    await events.ended; // the server ends the stream with the run
    assert.ok(
      events.events.some((e) => e.event === 'activity'),
      'activity lines come with the states',
    );
    assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /return a \/ b;/);

    const state = (await (await fetch(`${server.url}/api/runs/${runId}`, { headers: AUTH })).json()) as { currentNode: string };
    assert.equal(state.currentNode, 'SUCCESS');
    const list = (await (await fetch(`${server.url}/api/runs`, { headers: AUTH })).json()) as {
      runs: Array<{ runId: string; currentNode: string }>;
    };
    assert.deepEqual(
      list.runs.map((r) => [r.runId, r.currentNode]),
      [[runId, 'SUCCESS']],
    );

    const metrics = await (await fetch(`${server.url}/metrics`, { headers: AUTH })).text();
    assert.match(metrics, /^ironbees_runs_total\{outcome="success"\} 1$/m);
    assert.match(metrics, /^ironbees_iterations_total 1$/m);
    assert.match(metrics, /^ironbees_active_runs 0$/m);
    assert.match(metrics, /^ironbees_step_duration_seconds_count\{node="VALIDATE"\} 1$/m);
    assert.match(metrics, /^ironbees_tokens_total\{kind="input"\} [1-9]/m);

    const needsPlan = verify(await receiver.waitFor((h) => h.body.includes('"node":"WAIT_PLAN_APPROVAL"')));
    assert.deepEqual(Object.keys(needsPlan).sort(), ['event', 'node', 'request', 'runId', 'summary', 'text']);
    assert.equal(needsPlan.event, 'needs_person');
    assert.equal(needsPlan.runId, runId);
    assert.equal(needsPlan.request, 'Fix the failing Calculator test');
    assert.match(String(needsPlan.text), /review the plan/);
    const ended = verify(await receiver.waitFor((h) => h.body.includes('"event":"run_ended"')));
    assert.equal(ended.node, 'SUCCESS');
    assert.equal(ended.runId, runId);
    assert.equal(receiver.received[0].status, 503, 'the first delivery failed');
    assert.equal(
      receiver.received.filter((h) => h.status === 200 && h.body === receiver.received[0].body).length,
      1,
      'and was retried once',
    );
  });

  it('SSE: a follower that reconnects with Last-Event-ID gets exactly the events after it', async () => {
    const all = await followSse(`${server.url}/api/runs/${runId}/events`, AUTH);
    await all.ended;
    const ids = all.events.map((e) => e.id);
    assert.ok(ids.length > 6, `${ids.length} events`);
    assert.equal(new Set(ids).size, ids.length, 'ids are unique');
    const cut = Math.floor(ids.length / 2);
    const resumed = await followSse(`${server.url}/api/runs/${runId}/events`, { ...AUTH, 'last-event-id': ids[cut] });
    await resumed.ended;
    assert.deepEqual(
      resumed.events.map((e) => e.id),
      ids.slice(cut + 1),
    );
    assert.deepEqual(resumed.events.at(-1), all.events.at(-1));
  });

  it('a restarted server finds the waiting run on disk, and it is resumed and approved to SUCCESS', async () => {
    writeFileSync(path.join(workspace, SOURCE), ORIGINAL);
    fake.enqueue(...FIX);
    const started = await post(`${server.url}/api/runs`, { request: 'Fix it again', workspace });
    assert.equal(started.status, 201);
    const second = ((await started.json()) as { runId: string }).runId;
    const events = await followSse(`${server.url}/api/runs/${second}/events`, AUTH);
    await events.waitFor(atNode('WAIT_PLAN_APPROVAL'));
    events.close();
    assert.equal(await stopServer(server), 0);

    server = await startServer(root, env);
    const list = (await (await fetch(`${server.url}/api/runs`, { headers: AUTH })).json()) as {
      runs: Array<{ runId: string; currentNode: string; live: boolean; workspace: string }>;
    };
    const found = list.runs.find((r) => r.runId === second);
    assert.deepEqual(found && [found.currentNode, found.live, found.workspace], ['WAIT_PLAN_APPROVAL', false, workspace]);
    const notLive = await post(`${server.url}/api/runs/${second}/plan`, { approved: true });
    assert.equal(notLive.status, 409);
    assert.match(((await notLive.json()) as { error: string }).error, /resume it first/);

    const resumed = await post(`${server.url}/api/runs/${second}/resume`, {});
    assert.equal(resumed.status, 202, await resumed.clone().text());
    const follow = await followSse(`${server.url}/api/runs/${second}/events`, AUTH);
    await follow.waitFor(atNode('WAIT_PLAN_APPROVAL'));
    assert.equal((await post(`${server.url}/api/runs/${second}/plan`, { approved: true })).status, 200);
    await follow.waitFor(atNode('WAIT_DIFF_APPROVAL'));
    assert.equal((await post(`${server.url}/api/runs/${second}/diffs`, { approved: true })).status, 200);
    await follow.waitFor(atNode('SUCCESS'));
    assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /return a \/ b;/);
    const metrics = await (await fetch(`${server.url}/metrics`, { headers: AUTH })).text();
    assert.match(metrics, /^ironbees_runs_total\{outcome="success"\} 1$/m, 'the new server counts the run it finished');
  });
});
