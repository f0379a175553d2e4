// A run folder is data, not orders: a state.json this person did not write on this machine (shipped
// in a repository, or edited) resumes with both approvals asked, no context file and no plan
// approval taken as given; a run made here resumes exactly as it was started.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WorkflowContext } from '../../../src/core/model';
import type { Logger } from '../../../src/core/host';
import { createNodeHost } from '../../../src/host/node';
import { isSignedHere, runKeyFile, signRunOrders } from '../../../src/core/workflow/run-signature';
import { RunStore } from '../../../src/core/workflow/store';
import { FakeSteps } from './fake-steps';
import { StateStream, TempWorkspace, orchestratorOver } from './orchestrator-harness';
import { baseline, codeOutput, passing, planOutput, workflow } from './samples';

describe('run signature: a shipped run is not obeyed', function () {
  this.timeout(20_000);
  let ws: TempWorkspace;
  const controllers: AbortController[] = [];
  beforeEach(() => (ws = new TempWorkspace()));
  afterEach(() => {
    for (const c of controllers.splice(0)) c.abort();
    ws.remove();
  });

  function steps(): FakeSteps {
    return new FakeSteps()
      .script('captureBaseline', { output: baseline() })
      .script('plan', { output: planOutput() })
      .script('code', { output: codeOutput() })
      .script('validate', { output: passing() });
  }

  /** A run started with loose orders, left at its plan gate; returns its id. */
  async function runLeftAtPlan(overrides: Partial<WorkflowContext>): Promise<string> {
    const controller = new AbortController();
    controllers.push(controller);
    const stream = new StateStream(
      orchestratorOver(ws.host, steps()).execute('Fix it', workflow({ workspaceRoot: ws.dir, ...overrides }), controller.signal),
    );
    const waiting = await stream.until('WAIT_PLAN_APPROVAL');
    controller.abort();
    await stream.ends();
    return waiting.stateId;
  }

  async function resumeAndApprovePlan(runId: string, logger: Logger): Promise<{ nodes: string[]; code: FakeSteps }> {
    const code = new FakeSteps().script('code', { output: codeOutput() }).script('validate', { output: passing() });
    const orchestrator = orchestratorOver(createNodeHost(ws.dir, { logger }), code);
    const stream = new StateStream(orchestrator.resume(runId));
    assert.equal((await stream.next()).currentNode, 'WAIT_PLAN_APPROVAL');
    await orchestrator.approve(runId, { type: 'APPROVE' });
    const next = [(await stream.next()).currentNode, (await stream.next()).currentNode];
    return { nodes: next, code };
  }

  const loose = { approval: { plan: 'always', diffs: 'never' }, contextFiles: ['/proc/self/environ'] } as const;

  it('a run made here is signed and resumes with its own orders', async () => {
    const runId = await runLeftAtPlan({ ...loose, contextFiles: [...loose.contextFiles] });
    const saved = ws.state(runId);
    assert.match(saved.signature ?? '', /^[0-9a-f]{64}$/);
    assert.equal(new RunStore(ws.host).isOwnRun(saved), true);
    const warned: string[] = [];
    const { nodes, code } = await resumeAndApprovePlan(runId, {
      debug: () => undefined,
      info: () => undefined,
      warn: (m) => warned.push(m),
      error: () => undefined,
    });
    // diffs "never": no diff gate, straight to validation.
    assert.deepEqual(nodes, ['CODE', 'VALIDATE']);
    assert.deepEqual(code.inputs.code[0].workflow.contextFiles, ['/proc/self/environ']);
    assert.deepEqual(warned, []);
  });

  it('the same run with its signature removed (a shipped run folder): diffs asked, the context file dropped, each named', async () => {
    const runId = await runLeftAtPlan({ ...loose, contextFiles: [...loose.contextFiles] });
    const file = path.join(ws.dir, '.ironbees', 'runs', runId, 'state.json');
    const shipped = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    delete shipped.signature;
    fs.writeFileSync(file, JSON.stringify(shipped));
    const warned: string[] = [];
    const { nodes, code } = await resumeAndApprovePlan(runId, {
      debug: () => undefined,
      info: () => undefined,
      warn: (m) => warned.push(m),
      error: () => undefined,
    });
    assert.deepEqual(nodes, ['CODE', 'WAIT_DIFF_APPROVAL']);
    assert.equal(code.inputs.code[0].workflow.contextFiles, undefined);
    assert.deepEqual(code.inputs.code[0].workflow.approval, { plan: 'always', diffs: 'always' });
    assert.deepEqual(warned, [
      'Not taken from the run folder (it was not created by you on this machine): diff approval "never"; every diff is asked about.',
      'Not taken from the run folder (it was not created by you on this machine): the context file /proc/self/environ.',
    ]);
  });

  it('an edited order breaks the signature: loosening diffs in state.json is not obeyed', async () => {
    const runId = await runLeftAtPlan({ approval: { plan: 'always', diffs: 'always' } });
    const file = path.join(ws.dir, '.ironbees', 'runs', runId, 'state.json');
    const text = fs.readFileSync(file, 'utf8');
    const edited = JSON.parse(text) as { machine: { context: { workflow: WorkflowContext } } };
    edited.machine.context.workflow.approval.diffs = 'never';
    fs.writeFileSync(file, JSON.stringify(edited));
    const warned: string[] = [];
    const { nodes } = await resumeAndApprovePlan(runId, {
      debug: () => undefined,
      info: () => undefined,
      warn: (m) => warned.push(m),
      error: () => undefined,
    });
    assert.deepEqual(nodes, ['CODE', 'WAIT_DIFF_APPROVAL']);
    assert.equal(warned.length, 1);
  });

  it('the key is kept outside the workspace in a private file; another key does not verify', () => {
    const context = { workflow: workflow({ workspaceRoot: ws.dir }) };
    const signature = signRunOrders('r-1', context);
    assert.equal(isSignedHere('r-1', context, signature), true);
    assert.equal(isSignedHere('r-2', context, signature), false);
    const key = runKeyFile();
    assert.equal(path.relative(ws.dir, key).startsWith('..'), true);
    if (process.platform !== 'win32') assert.equal(fs.statSync(key).mode & 0o777, 0o600);
    const otherCache = fs.mkdtempSync(path.join(ws.dir, '..', 'ironbees-other-key-'));
    try {
      assert.equal(isSignedHere('r-1', context, signature, { IRONBEES_CACHE_DIR: otherCache }), false);
    } finally {
      fs.rmSync(otherCache, { recursive: true, force: true });
    }
  });

  it('revert never writes files from a run folder not made here', async () => {
    ws.write('src/App.cs', "the person's code\n");
    const runDir = path.join(ws.dir, '.ironbees', 'runs', 'r-shipped');
    fs.mkdirSync(path.join(runDir, 'edits', 'blobs'), { recursive: true });
    fs.writeFileSync(
      path.join(runDir, 'state.json'),
      JSON.stringify({ schemaVersion: 1, runId: 'r-shipped', createdAt: '', updatedAt: '', codingState: {}, machine: null }),
    );
    fs.writeFileSync(path.join(runDir, 'edits', 'index.json'), JSON.stringify({ files: { 'src/App.cs': { existed: false, blob: null } } }));
    await assert.rejects(new RunStore(ws.host).journal.revert('r-shipped'), /was not created by you on this machine/);
    assert.equal(ws.read('src/App.cs')?.toString('utf8'), "the person's code\n");
  });
});
