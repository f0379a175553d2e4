// Checkpoints and rewind with the real CLI (docs/contracts.md, "Checkpoints and rewind"): a
// two-iteration run on the calculator fixture (the first attempt fails a test, the second passes),
// its checkpoints with their test results, a rewind to iteration 1 that gives back its bytes, a
// resume with guidance that succeeds, and a person's later edit that a rewind refuses to overwrite
// without --force. Real dotnet, the real SDK, a fake Messages API.

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { toolUse } from '../support/fake-anthropic';
import type { FakeRequest } from '../support/fake-anthropic';
import { REPO_ROOT, readRunFile, runCli, traceEvents } from '../support/cli-harness';
import { cliRunWithFake } from '../support/cli-with-fake';

const SOURCE = 'src/Calculator/Calculator.cs';
const ORIGINAL = readFileSync(path.join(REPO_ROOT, 'test/fixtures/calculator', SOURCE));
const ITERATION_1 = Buffer.from(ORIGINAL.toString('utf8').replace('return a * b;', 'return a + b;'), 'utf8');
const GUIDANCE = 'Divide must use the / operator, not +.';

const PLAN = {
  spec: 'Calc.Divide returns the quotient a / b; Divide_ReturnsQuotient passes and no other test breaks.',
  plan: {
    summary: 'Fix the wrong operator in Calc.Divide.',
    steps: [
      { number: 1, description: 'Return the quotient', actionType: 'MODIFY', filePath: SOURCE, rationale: 'The test expects 6 / 3 = 2' },
    ],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

function edit(oldStr: string, newStr: string): ReturnType<typeof toolUse> {
  return toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: oldStr, new_str: newStr });
}

function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('ironbees checkpoints, rewind and resume --guidance (real dotnet, real SDK, fake Messages API)', function () {
  this.timeout(600_000);
  const cli = cliRunWithFake();

  it('lists the checkpoints with their tests, rewinds to iteration 1 byte for byte, resumes with guidance to SUCCESS, and refuses a person’s edit without --force', async () => {
    const { fake, workspace, env } = cli;
    const file = path.join(workspace, SOURCE);
    fake.enqueue(
      toolUse('submit_plan', PLAN),
      edit('return a * b;', 'return a + b;'),
      toolUse('submit_changes', { summary: 'Divide adds (wrong).' }),
      edit('return a + b;', 'return a / b;'),
      toolUse('submit_changes', { summary: 'Divide divides.' }),
    );
    const run = await runCli(['run', 'Fix the failing Calculator test', '--workspace', workspace, '--yes', '--json'], env);
    assert.equal(run.code, 0, run.stderr);
    const final = run.states.at(-1);
    assert.equal(final?.currentNode, 'SUCCESS');
    assert.equal(final?.iterationCount, 2);
    const runId = final.stateId;

    // The checkpoints, with the tests at each: the baseline and iteration 1 fail Divide, iteration 2 is green.
    const listed = await runCli(['checkpoints', runId, '--workspace', workspace, '--json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    const checkpoints = jsonLines(listed.stdout).map(({ id, label, node, iteration, files, tests, green }) => ({
      id,
      label,
      node,
      iteration,
      files,
      tests,
      green,
    }));
    assert.deepEqual(checkpoints, [
      { id: 'c1', label: 'plan approved', node: 'CODE', iteration: 1, files: [], tests: { total: 7, passed: 6, failed: 1 }, green: false },
      {
        id: 'c2',
        label: 'iteration 1: tests failed',
        node: 'DECIDE',
        iteration: 1,
        files: [SOURCE],
        // What iteration 1's validation reported (its testResult), as the run's state has it.
        tests: { total: 1, passed: 0, failed: 1 },
        green: false,
      },
      {
        id: 'c3',
        label: 'iteration 2: passed',
        node: 'DECIDE',
        iteration: 2,
        files: [SOURCE],
        tests: { total: 7, passed: 7, failed: 0 },
        green: true,
      },
    ]);
    // Only the touched file's two versions are stored, once each.
    const blobs = readFileSync(path.join(workspace, '.ironbees', 'runs', runId, 'checkpoints', 'index.json'), 'utf8');
    assert.equal((JSON.parse(blobs) as unknown[]).length, 3);

    // Rewind to iteration 1: its bytes come back, and the run waits for guidance there.
    const rewound = await runCli(['rewind', runId, 'iteration:1', '--workspace', workspace], env);
    assert.equal(rewound.code, 0, rewound.stderr);
    assert.equal(rewound.stdout.split('\n')[0], `restored ${SOURCE}`);
    assert.ok(readFileSync(file).equals(ITERATION_1), 'iteration 1’s bytes, byte for byte');
    const waiting = JSON.parse(readRunFile(workspace, runId, 'state.json')) as {
      codingState: {
        currentNode: string;
        iterationCount: number;
        metadata: { rewinds: Array<{ checkpoint: string; setAside: unknown[] }> };
      };
    };
    assert.equal(waiting.codingState.currentNode, 'WAIT_HUMAN');
    assert.equal(waiting.codingState.iterationCount, 1);
    assert.equal(waiting.codingState.metadata.rewinds[0].checkpoint, 'c2');
    assert.equal(waiting.codingState.metadata.rewinds[0].setAside.length, 1);
    const rewindLine = traceEvents(workspace, runId).find((e) => e.kind === 'rewind');
    assert.deepEqual(
      {
        checkpoint: rewindLine?.checkpoint,
        fromNode: rewindLine?.fromNode,
        fromIteration: rewindLine?.fromIteration,
        files: rewindLine?.files,
      },
      { checkpoint: 'c2', fromNode: 'SUCCESS', fromIteration: 2, files: [SOURCE] },
    );

    // Resume with guidance: the coder hears it, and the run succeeds again in iteration 2.
    let coderHeard = '';
    fake.enqueue(
      (request: FakeRequest) => {
        coderHeard = JSON.stringify(request.body.messages);
        return edit('return a + b;', 'return a / b;');
      },
      toolUse('submit_changes', { summary: 'Divide divides, as the person said.' }),
    );
    const resumed = await runCli(['resume', runId, '--workspace', workspace, '--guidance', GUIDANCE, '--yes', '--json'], env);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.states.at(-1)?.currentNode, 'SUCCESS');
    assert.equal(resumed.states.at(-1)?.iterationCount, 2);
    assert.equal(fake.pending, 0, 'every scripted answer was used');
    assert.ok(coderHeard.includes(GUIDANCE), 'the coder is given the guidance');
    assert.match(readFileSync(file, 'utf8'), /return a \/ b;/);
    // The attempt rewound away stays in the run's history.
    assert.match(
      readRunFile(workspace, runId, 'HANDOFF.md'),
      /## Rewound\n\n- [^\n]*: back to checkpoint c2 \(iteration 1: tests failed\) from SUCCESS, iteration 2\n {2}- set aside: iteration 2 — passed: Divide divides\./,
    );
    const trace = await runCli(['trace', runId, '--workspace', workspace], env);
    assert.match(trace.stdout, /\nRewound at \S+ to c2 \(iteration 1: tests failed\) from SUCCESS, iteration 2\n/);
    const after = jsonLines((await runCli(['checkpoints', runId, '--workspace', workspace, '--json'], env)).stdout);
    assert.deepEqual(
      after.map((c) => [c.id, c.label]),
      [
        ['c1', 'plan approved'],
        ['c2', 'iteration 1: tests failed'],
        ['c3', 'iteration 2: passed'],
        ['c4', 'guidance given'],
        ['c5', 'iteration 2: passed'],
      ],
    );

    // A person edits the file: a rewind refuses, naming it, and writes nothing.
    const persons = Buffer.from(`// the person's note\n${readFileSync(file, 'utf8')}`, 'utf8');
    writeFileSync(file, persons);
    const refused = await runCli(['rewind', runId, 'iteration:1', '--workspace', workspace], env);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, new RegExp(`changed by someone else: ${SOURCE.replace(/\./g, '\\.')}`));
    assert.ok(readFileSync(file).equals(persons), 'the person’s edit is kept');
    assert.equal(
      (JSON.parse(readRunFile(workspace, runId, 'state.json')) as { codingState: { currentNode: string } }).codingState.currentNode,
      'SUCCESS',
    );

    // --force restores iteration 1's bytes.
    const forced = await runCli(['rewind', runId, 'iteration:1', '--force', '--workspace', workspace], env);
    assert.equal(forced.code, 0, forced.stderr);
    assert.ok(readFileSync(file).equals(ITERATION_1), 'iteration 1’s bytes after --force');
    assert.equal(
      traceEvents(workspace, runId)
        .filter((e) => e.kind === 'rewind')
        .at(-1)?.forced,
      true,
    );

    // plan: before any edit, the original bytes.
    const toPlan = await runCli(['rewind', runId, 'plan', '--workspace', workspace], env);
    assert.equal(toPlan.code, 0, toPlan.stderr);
    assert.ok(readFileSync(file).equals(ORIGINAL), 'the original bytes at the plan');
  });
});
