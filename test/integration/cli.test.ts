// The real CLI, end to end: real dotnet on a copy of a C# fixture, the real Anthropic SDK against
// a scripted local fake of the Messages API.

import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { httpError, startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic, FakeRequest } from '../support/fake-anthropic';
import { REPO_ROOT, copyFixture, ensureCliBuilt, readRunFile, removeDir, runCli, startCli, traceEvents } from '../support/cli-harness';
import { MAIN_PATH } from '../../src/core/nodes';

const SOURCE = 'src/Calculator/Calculator.cs';
const ORIGINAL = readFileSync(path.join(REPO_ROOT, 'test/fixtures/calculator', SOURCE));

const PLAN = {
  spec: 'Calc.Divide returns the quotient a / b; Divide_ReturnsQuotient passes and no other test breaks.',
  plan: {
    summary: 'Fix the wrong operator in Calc.Divide.',
    steps: [
      {
        number: 1,
        description: 'Return a / b instead of a * b',
        actionType: 'MODIFY',
        filePath: SOURCE,
        rationale: 'The test expects 6 / 3 = 2',
      },
    ],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

function edit(oldStr: string, newStr: string): ReturnType<typeof toolUse> {
  return toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: oldStr, new_str: newStr });
}

/** Every tool_result the model was sent, flattened to text, with its error flag. */
function toolResults(request: FakeRequest): Array<{ text: string; isError: boolean }> {
  const results: Array<{ text: string; isError: boolean }> = [];
  for (const message of request.body.messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type !== 'tool_result') continue;
      const content = block.content;
      const text = typeof content === 'string' ? content : JSON.stringify(content);
      results.push({ text, isError: block.is_error === true });
    }
  }
  return results;
}

function allText(request: FakeRequest): string {
  return JSON.stringify(request.body.messages);
}

describe('ironbees CLI end to end (real dotnet, real SDK, fake Messages API)', function () {
  this.timeout(420_000);
  let fake: FakeAnthropic;
  let workspace: string;
  let env: Record<string, string>;

  before(() => ensureCliBuilt());
  beforeEach(async () => {
    fake = await startFakeAnthropic();
    workspace = copyFixture('calculator');
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url };
  });
  afterEach(async () => {
    await fake.close();
    removeDir(workspace);
  });

  it('plans, survives a 429 and a 529, recovers from a fix that does not compile, and succeeds in 2 iterations; then reverts', async () => {
    let secondAttemptSawError = false;
    fake.enqueue(
      httpError(429),
      toolUse('read_file', { path: SOURCE }),
      // A malformed plan is answered with an error the model can fix, not a crash.
      toolUse('submit_plan', { spec: PLAN.spec, plan: { summary: 'x', steps: [], complexity: 'LOW' } }),
      toolUse('submit_plan', PLAN),
      // The coder first tries to escape the workspace: refused, as data.
      toolUse('str_replace_based_edit_tool', { command: 'view', path: '../../etc/passwd' }),
      edit('return a * b;', 'return a / b'),
      toolUse('submit_changes', { summary: 'Divide now divides.' }),
      httpError(529),
      (request) => {
        secondAttemptSawError = /CS1002/.test(allText(request));
        return edit('return a / b', 'return a / b;');
      },
      toolUse('submit_changes', { summary: 'Added the missing semicolon.' }),
    );

    const result = await runCli(['run', 'Fix the failing Calculator test', '--workspace', workspace, '--yes', '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.pending, 0, 'every scripted answer was used');
    const final = result.states.at(-1);
    assert.ok(final);
    assert.equal(final.currentNode, 'SUCCESS');
    assert.equal(final.iterationCount, 2);
    assert.ok(secondAttemptSawError, "the coder's second request carries the CS1002 error");

    const nodes = result.states.map((s) => s.currentNode);
    for (const node of [...MAIN_PATH, 'SUCCESS']) {
      assert.ok(nodes.includes(node), `passes through ${node}`);
    }
    for (const line of result.stdout.trim().split('\n')) JSON.parse(line);

    const planRequests = fake.requests.filter((r) => r.body.tools?.some((t) => t.name === 'submit_plan'));
    assert.ok(
      toolResults(planRequests.at(-1) as FakeRequest).some((r) => r.isError && /step/.test(r.text)),
      'bad plan answered with is_error',
    );
    const coderRequests = fake.requests.filter((r) => r.body.tools?.some((t) => t.name === 'submit_changes'));
    assert.ok(
      coderRequests.some((r) => toolResults(r).some((t) => t.isError && /outside|refused/i.test(t.text))),
      'path escape refused with is_error',
    );

    const fixed = readFileSync(path.join(workspace, SOURCE), 'utf8');
    assert.match(fixed, /return a \/ b;/);
    const runId = final.stateId;
    const saved = JSON.parse(readRunFile(workspace, runId, 'state.json')) as {
      schemaVersion: number;
      codingState: { currentNode: string };
    };
    assert.equal(saved.codingState.currentNode, 'SUCCESS');
    assert.equal(saved.schemaVersion, 1);
    const events = traceEvents(workspace, runId);
    assert.ok(events.some((e) => e.kind === 'model_call' && (e.usage as { inputTokens: number }).inputTokens >= 0));
    assert.ok(events.some((e) => e.kind === 'tool_call' && typeof e.durationMs === 'number'));
    assert.match(readRunFile(workspace, runId, 'HANDOFF.md'), /Fix the failing Calculator test/);
    assert.match(readFileSync(path.join(workspace, '.ironbees', '.gitignore'), 'utf8'), /^runs\/$/m);

    const runs = await runCli(['runs', '--workspace', workspace, '--json'], {});
    assert.equal(runs.code, 0, runs.stderr);
    const listed = JSON.parse(runs.stdout.trim().split('\n')[0]) as { runId: string; currentNode: string };
    assert.equal(listed.runId, runId);
    assert.equal(listed.currentNode, 'SUCCESS');

    const revert = await runCli(['revert', runId, '--workspace', workspace], {});
    assert.equal(revert.code, 0, revert.stderr);
    assert.deepEqual(readFileSync(path.join(workspace, SOURCE)), ORIGINAL, 'byte for byte');
  });

  it('escalates at the iteration limit with --yes: exit 3 and a HANDOFF.md naming what still fails', async () => {
    fake.enqueue(
      toolUse('submit_plan', PLAN),
      edit('public static int Add(int a, int b) => a + b;', 'public static int Add(int a, int b) => b + a;'),
      toolUse('submit_changes', { summary: 'Swapped operands (does not fix anything).' }),
    );
    // Without the code cache (the other runs here use it): Node's own require loads the bundle, and zod's beside it.
    const result = await runCli(
      ['run', 'Fix the failing Calculator test', '--workspace', workspace, '--yes', '--json', '--max-iterations', '1'],
      { ...env, IRONBEES_CODE_CACHE: '0' },
    );
    assert.equal(result.code, 3, result.stderr);
    const final = result.states.at(-1);
    assert.ok(final);
    assert.equal(final.currentNode, 'WAIT_HUMAN');
    const handoff = readRunFile(workspace, final.stateId, 'HANDOFF.md');
    assert.match(handoff, /What still fails/);
    assert.match(handoff, /Divide_ReturnsQuotient/);
    assert.match(handoff, /already failing before the run/);
    assert.match(handoff, /Iteration 1/);

    // Answering "stop" needs no model: resumed without a key, the run is stopped when the person says so,
    // and its hand-off no longer suggests continuing.
    const stopped = await runCli(
      ['resume', final.stateId, '--workspace', workspace],
      { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: undefined },
      'y\n',
    );
    assert.equal(stopped.code, 4, stopped.stderr);
    assert.match(stopped.stderr, /Run \S+ stopped at the escalation\./);
    const persisted = JSON.parse(readRunFile(workspace, final.stateId, 'state.json')) as { codingState: { currentNode: string } };
    assert.equal(persisted.codingState.currentNode, 'CANCELLED');
    assert.doesNotMatch(readRunFile(workspace, final.stateId, 'HANDOFF.md'), /ironbees resume/);
  });

  it('resumes after the process is killed mid-VALIDATE, re-running validation only', async () => {
    fake.enqueue(toolUse('submit_plan', PLAN), edit('return a * b;', 'return a / b;'), toolUse('submit_changes', { summary: 'Fixed.' }));
    const first = startCli(['run', 'Fix the failing Calculator test', '--workspace', workspace, '--yes', '--json'], env);
    await first.waitForNode('VALIDATE');
    process.kill(-(first.child.pid as number), 'SIGKILL');
    const killed = await first.done;
    assert.notEqual(killed.code, 0);
    const runId = (killed.states.at(-1) as { stateId: string }).stateId;
    const persisted = JSON.parse(readRunFile(workspace, runId, 'state.json')) as { codingState: { currentNode: string } };
    assert.equal(persisted.codingState.currentNode, 'VALIDATE');

    const requestsBefore = fake.requests.length;
    const resumed = await runCli(['resume', runId, '--workspace', workspace, '--yes', '--json'], env);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.states.at(-1)?.currentNode, 'SUCCESS');
    assert.equal(fake.requests.length, requestsBefore, 'no model call after resume: only the step in flight ran');
    const validations = traceEvents(workspace, runId).filter((e) => e.kind === 'transition' && e.to === 'VALIDATE');
    assert.equal(validations.length, 2, 'VALIDATE entered once, then again on resume');
  });

  it('asks in the terminal without --yes: reject the plan with feedback, replan, approve, reject a diff, then accept', async () => {
    let replanSawFeedback = false;
    let recodeSawFeedback = false;
    fake.enqueue(
      toolUse('submit_plan', PLAN),
      (request) => {
        replanSawFeedback = allText(request).includes('keep the zero check');
        return toolUse('submit_plan', PLAN);
      },
      edit('return a * b;', 'return a / b; // fixed'),
      toolUse('submit_changes', { summary: 'Fixed with a comment.' }),
      (request) => {
        recodeSawFeedback = allText(request).includes('no comments please');
        return edit('return a * b;', 'return a / b;');
      },
      toolUse('submit_changes', { summary: 'Fixed.' }),
    );
    const answers = ['r', 'keep the zero check', 'a', 'r', 'no comments please', 'a', ''].join('\n');
    const result = await runCli(['run', 'Fix the failing Calculator test', '--workspace', workspace], env, answers);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(replanSawFeedback, 'the planner got the feedback');
    assert.ok(recodeSawFeedback, 'the coder got the diff feedback');
    assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /return a \/ b;\n/);
  });

  it('a rejection with a reason on the last iteration goes back to the coder and the run goes on (no iteration used)', async () => {
    let recodeSawReason = false;
    fake.enqueue(
      toolUse('submit_plan', PLAN),
      edit('return a * b;', 'return a / b; // fixed'),
      toolUse('submit_changes', { summary: 'Fixed with a comment.' }),
      (request) => {
        recodeSawReason = allText(request).includes('no comments please');
        return edit('return a * b;', 'return a / b;');
      },
      toolUse('submit_changes', { summary: 'Fixed.' }),
    );
    const answers = ['a', 'r', 'no comments please', 'a', ''].join('\n');
    const result = await runCli(
      ['run', 'Fix the failing Calculator test', '--workspace', workspace, '--max-iterations', '1'],
      env,
      answers,
    );
    assert.equal(result.code, 0, result.stderr);
    assert.ok(recodeSawReason, 'the coder got the reason');
    assert.doesNotMatch(result.stdout + result.stderr, /ESCALATE|validation still fails/i);
    assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /return a \/ b;\n/);
  });
});

describe('ironbees CLI refuses bad configuration with exit 2 and changes nothing', function () {
  this.timeout(60_000);
  let workspace: string;
  before(() => ensureCliBuilt());
  beforeEach(() => (workspace = copyFixture('calculator')));
  afterEach(() => removeDir(workspace));

  it('without an API key', async () => {
    const result = await runCli(['run', 'Fix it', '--workspace', workspace], { ANTHROPIC_API_KEY: '' });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /ANTHROPIC_API_KEY/);
    assert.equal(existsSync(path.join(workspace, '.ironbees', 'runs')), false);
  });

  it('without dotnet on PATH', async () => {
    const result = await runCli(['run', 'Fix it', '--workspace', workspace], {
      ANTHROPIC_API_KEY: 'sk-test',
      PATH: '/nonexistent',
      DOTNET_ROOT: '',
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /dotnet/);
    assert.equal(existsSync(path.join(workspace, '.ironbees', 'runs')), false);
  });

  it('with a bad agent.yaml in the workspace: the path, the field and what was expected', async () => {
    const dir = path.join(workspace, '.ironbees', 'agents', 'coder');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'agent.yaml'),
      'name: coder\ndescription: x\nversion: 1.0.0\nrequiredTools: []\nllmConfig:\n  model: m\n  maxTokens: lots\n',
    );
    writeFileSync(path.join(dir, 'prompt.md'), 'prompt');
    const result = await runCli(['run', 'Fix it', '--workspace', workspace, '--trust-workspace'], { ANTHROPIC_API_KEY: 'sk-test' });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /agents[\\/]coder[\\/]agent\.yaml/);
    assert.match(result.stderr, /maxTokens/);
    assert.equal(existsSync(path.join(workspace, '.ironbees', 'runs')), false);
  });

  it('with an unknown flag or command', async () => {
    assert.equal((await runCli(['run', 'x', '--frobnicate'], {})).code, 2);
    assert.equal((await runCli(['launch'], {})).code, 2);
  });
});
