// A request that is not about a test that already fails: the planner names that test in
// plan.knownFailures, and with --accept-known-failures the run succeeds with it still failing (real
// dotnet, real CLI, fake API).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, removeDir, runCli } from '../support/cli-harness';

const SOURCE = 'src/Calculator/Calculator.cs';
const FAILING = 'Calculator.Tests.CalcTests.Divide_ReturnsQuotient';

describe('ironbees CLI with a failing test the request is not about', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  let workspace: string;

  before(() => ensureCliBuilt());
  beforeEach(async () => {
    fake = await startFakeAnthropic();
    workspace = copyFixture('calculator');
  });
  afterEach(async () => {
    await fake.close();
    removeDir(workspace);
  });

  it('succeeds when the only failure is one the approved plan leaves alone', async () => {
    let plannerSawBaseline = false;
    fake.enqueue(
      (request) => {
        const text = JSON.stringify(request.body.messages);
        plannerSawBaseline = text.includes(FAILING) && text.includes('knownFailures');
        return toolUse('submit_plan', {
          spec: 'Calc.Negate(a) returns -a.',
          plan: {
            summary: 'Add Calc.Negate.',
            steps: [{ number: 1, description: 'Add Negate after Add', actionType: 'MODIFY', filePath: SOURCE, rationale: 'Asked for' }],
            affectedFiles: [SOURCE],
            complexity: 'LOW',
            knownFailures: [FAILING],
          },
        });
      },
      toolUse('str_replace_based_edit_tool', {
        command: 'str_replace',
        path: SOURCE,
        old_str: '    public static int Add(int a, int b) => a + b;\n',
        new_str: '    public static int Add(int a, int b) => a + b;\n\n    public static int Negate(int a) => -a;\n',
      }),
      toolUse('submit_changes', { summary: 'Added Negate.' }),
    );
    const env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url };
    const result = await runCli(
      ['run', 'Add a Negate method to Calc', '--workspace', workspace, '--yes', '--accept-known-failures', '--json'],
      env,
    );
    assert.equal(result.code, 0, result.stderr);
    assert.ok(plannerSawBaseline, 'the planner is told which tests fail before any change, and how to leave them alone');
    const final = result.states.at(-1) as Record<string, unknown> & { currentNode: string; iterationCount: number };
    assert.equal(final.currentNode, 'SUCCESS');
    assert.equal(final.iterationCount, 1);
    const test = final.testResult as { failed: number; failures: Array<{ testName: string; preExisting?: boolean }> };
    assert.equal(test.failed, 1, 'the failure the request is not about is still there');
    assert.deepEqual(
      test.failures.map((failure) => [failure.testName, failure.preExisting]),
      [[FAILING, true]],
    );
    assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /Negate\(int a\) => -a;/);
    assert.equal(fake.pending, 0);
  });
});
