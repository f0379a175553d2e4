// Run control over MCP, as another agent would use it: `ironbees mcp --demo` over stdio (the
// scripted demo model, real dotnet) on a copy of the calculator fixture, driven by the SDK's Client.
// Also the `test` and `diagnostics` tools, and apmas_request_help escalating a live run.

import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { BuildResult, CompilationError, TestResult } from '../../src/core/model';
import { CLI, REPO_ROOT, copyFixture, ensureCliBuilt, removeDir } from '../support/cli-harness';

const SOURCE = 'src/Calculator/Calculator.cs';
const ORIGINAL = readFileSync(path.join(REPO_ROOT, 'test', 'fixtures', 'calculator', SOURCE));
/** Generous for a restore, a build and a test run on a small machine; a stuck run fails here instead of hanging. */
const NODE_TIMEOUT_MS = 180_000;

interface RunView {
  stateId: string;
  currentNode: string;
  plan: { steps: Array<{ filePath: string }> } | null;
  codeDiffs: Array<{ filePath: string; diffText: string }>;
  testResult: TestResult | null;
  helpRequest: { reason: string; from: string } | null;
  handoffPath: string | null;
  escalations: Array<{ content: string }>;
}

describe('ironbees mcp: run control, test and diagnostics (demo model, real dotnet)', function () {
  this.timeout(420_000);
  let workspace: string;
  let client: Client;

  before(async () => {
    ensureCliBuilt();
    workspace = copyFixture('calculator');
    client = new Client({ name: 'run-control-test', version: '1' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--workspace', workspace, '--demo'], stderr: 'pipe' }),
    );
  });
  after(async () => {
    await client?.close();
    removeDir(workspace);
  });

  async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args }, undefined, { timeout: NODE_TIMEOUT_MS })) as CallToolResult;
  }

  function textOf(result: CallToolResult): string {
    return (result.content[0] as { text: string }).text;
  }

  async function json<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
    const result = await call(name, args);
    assert.ok(!result.isError, `${name} failed: ${textOf(result)}`);
    return JSON.parse(textOf(result)) as T;
  }

  async function state(runId: string): Promise<RunView> {
    return json<RunView>('get_run_state', { runId });
  }

  /** Polls get_run_state until the run is at `node`; fails at once if it ends anywhere else. */
  async function waitFor(runId: string, node: string): Promise<RunView> {
    const deadline = Date.now() + NODE_TIMEOUT_MS;
    for (;;) {
      const view = await state(runId);
      if (view.currentNode === node) return view;
      if (['SUCCESS', 'FAILED', 'CANCELLED'].includes(view.currentNode))
        assert.fail(`run ${runId} ended at ${view.currentNode}, not ${node}`);
      if (Date.now() > deadline) assert.fail(`run ${runId} did not reach ${node} in time; it is at ${view.currentNode}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  it('test: builds, runs the tests and returns the parsed TestResult', async () => {
    const result = await call('test');
    const data = result.structuredContent as { build: BuildResult; test: TestResult };
    assert.ok(data, textOf(result));
    assert.equal(data.build.success, true);
    assert.equal(data.test.failed, 1, 'the fixture has one failing test');
    assert.equal(data.test.total, data.test.passed + data.test.failed + data.test.skipped);
    assert.match(data.test.failures[0].testName, /Divide/);
  });

  it('diagnostics: compiler errors from a build, optionally only for the given files', async () => {
    const broken = path.join(workspace, 'src', 'Calculator', 'Broken.cs');
    writeFileSync(broken, 'namespace Calculator;\npublic class Broken { public int X() => ; }\n');
    try {
      const all = (await call('diagnostics')).structuredContent as { source: string; errors: CompilationError[] };
      assert.equal(all.source, 'build');
      assert.ok(all.errors.length > 0, 'the broken file is reported');
      assert.ok(
        all.errors.every((e) => e.filePath === 'src/Calculator/Broken.cs'),
        JSON.stringify(all.errors),
      );
      assert.match(all.errors[0].code, /^CS\d+/);
      const other = (await call('diagnostics', { paths: [SOURCE] })).structuredContent as { errors: CompilationError[] };
      assert.deepEqual(other.errors, [], 'none in the file asked about');
    } finally {
      rmSync(broken, { force: true });
    }
  });

  it('apmas_request_help escalates a live run: it stops validating, hands off, waits for a person, and stops when told', async () => {
    const { runId } = await json<{ runId: string }>('start_run', {
      request: 'Fix the failing Calculator test',
      planApproval: 'never',
      diffApproval: 'always',
    });
    await waitFor(runId, 'WAIT_DIFF_APPROVAL');
    await json('approve_run', { runId, decision: 'approve' });
    // Validation (a build and the tests) has just started; the reviewer asks for a person.
    const help = await call('apmas_request_help', { runId, agent: 'reviewer', helpType: 'human', issue: 'Should Divide by zero throw?' });
    assert.match(textOf(help), /stopped its current step and waits for a person/);

    const waiting = await waitFor(runId, 'WAIT_HUMAN');
    assert.deepEqual(waiting.helpRequest, { reason: 'reviewer asks: Should Divide by zero throw?', from: 'VALIDATE' });
    assert.equal(waiting.escalations.length, 1);
    assert.ok(waiting.handoffPath);
    assert.match(
      readFileSync(waiting.handoffPath, 'utf8'),
      /Help was requested during VALIDATE: reviewer asks: Should Divide by zero throw\?/,
    );

    await json('approve_run', { runId, decision: 'stop' });
    const stopped = await state(runId);
    assert.equal(stopped.currentNode, 'CANCELLED');
    assert.deepEqual(stopped.escalations, [], 'answering the run closes the escalation');
  });

  it('start_run → get_run_state → approve_run (plan, then diffs) → SUCCESS', async () => {
    // The previous run may have applied its fix before it was stopped: start from the bug again.
    writeFileSync(path.join(workspace, SOURCE), ORIGINAL);
    const started = await json<{ runId: string; currentNode: string }>('start_run', { request: 'Fix the failing Calculator test' });
    const { runId } = started;
    const atPlan = await waitFor(runId, 'WAIT_PLAN_APPROVAL');
    assert.equal(atPlan.plan?.steps[0].filePath, SOURCE);
    await json('approve_run', { runId, decision: 'approve' });
    const atDiffs = await waitFor(runId, 'WAIT_DIFF_APPROVAL');
    assert.equal(atDiffs.codeDiffs[0].filePath, SOURCE);
    assert.match(atDiffs.codeDiffs[0].diffText, /\+.*a \/ b/);
    assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /a \* b/, 'nothing on disk before the diffs are approved');
    await json('approve_run', { runId, decision: 'approve' });
    const done = await waitFor(runId, 'SUCCESS');
    assert.equal(done.testResult?.failed, 0);
    assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /a \/ b/);

    // One coordination model: the run's own agents are in the APMAS records, as an outside agent's would be.
    const context = await json<{ agents: Record<string, { status: string; lastHeartbeat?: string; artifacts: string[] }> }>(
      'apmas_get_context',
      { runId, include: ['agents'] },
    );
    assert.deepEqual(Object.keys(context.agents).sort(), ['coder', 'planner']);
    assert.deepEqual(
      Object.values(context.agents).map((agent) => agent.status),
      ['completed', 'completed'],
    );
    assert.deepEqual(context.agents.coder.artifacts, [SOURCE]);
    for (const agent of Object.values(context.agents)) assert.ok(!Number.isNaN(Date.parse(agent.lastHeartbeat ?? '')));
  });

  it('approve_run at no gate is an error the client can read; cancel_run ends a run CANCELLED', async () => {
    const { runId } = await json<{ runId: string }>('start_run', { request: 'Fix the failing Calculator test' });
    const early = await call('approve_run', { runId, decision: 'approve' });
    assert.ok(early.isError, 'the run waits at no gate yet');
    const cancelled = await json<{ currentNode: string }>('cancel_run', { runId });
    assert.equal(cancelled.currentNode, 'CANCELLED');
    assert.equal((await state(runId)).currentNode, 'CANCELLED');
  });
});
