// Skipping the failing test is not fixing it, and --yes excuses no failing test: both end in an
// escalation, never SUCCESS (real CLI, real dotnet on the calculator fixture, scripted fake API).

import assert from 'node:assert/strict';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, removeDir, runCli } from '../support/cli-harness';

const SOURCE = 'src/Calculator/Calculator.cs';
const TESTS = 'tests/Calculator.Tests/CalcTests.cs';
const FAILING = 'Calculator.Tests.CalcTests.Divide_ReturnsQuotient';

interface Final {
  currentNode: string;
  testResult: { success: boolean; failed: number; failures: Array<{ testName: string; message: string; preExisting?: boolean }> } | null;
  metadata: Record<string, unknown>;
}

function plan(knownFailures?: string[]): ReturnType<typeof toolUse> {
  return toolUse('submit_plan', {
    spec: 'Calc behaves.',
    plan: {
      summary: 'Change Calc.',
      steps: [{ number: 1, description: 'Edit', actionType: 'MODIFY', filePath: SOURCE, rationale: 'Asked for' }],
      affectedFiles: [SOURCE],
      complexity: 'LOW',
      ...(knownFailures ? { knownFailures } : {}),
    },
  });
}

describe('ironbees CLI: skipping or excusing the failing test never ends in SUCCESS', function () {
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

  it('a coder that adds [Fact(Skip = "flaky")] to the failing test escalates; the test is "skipped after the change"', async () => {
    fake.enqueue(
      plan(),
      toolUse('str_replace_based_edit_tool', {
        command: 'str_replace',
        path: TESTS,
        old_str: '    [Fact]\n    public void Divide_ReturnsQuotient()',
        new_str: '    [Fact(Skip = "flaky")]\n    public void Divide_ReturnsQuotient()',
      }),
      toolUse('submit_changes', { summary: 'Skipped the flaky test.' }),
      // The test file is outside the plan: the first submit is questioned, the second taken at its word.
      toolUse('submit_changes', { summary: 'Skipped the flaky test; it is flaky.' }),
    );
    const env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url };
    const result = await runCli(
      ['run', 'Fix the failing Divide test', '--workspace', workspace, '--yes', '--max-iterations', '1', '--json'],
      env,
    );
    assert.equal(result.code, 3, result.stderr);
    assert.ok(!result.states.some((state) => state.currentNode === 'SUCCESS'));
    const validated = result.states.filter((state) => (state as unknown as Final).testResult !== null).at(-1) as unknown as Final;
    assert.equal(validated.testResult?.success, false);
    assert.equal(validated.testResult?.failed, 1);
    assert.deepEqual(
      validated.testResult?.failures.map((failure) => [failure.testName, failure.message.split(':')[0], failure.preExisting]),
      [[FAILING, 'skipped after the change', false]],
    );
    assert.equal(fake.pending, 0);
  });

  it('--yes without --accept-known-failures: the test the plan calls known still blocks SUCCESS', async () => {
    fake.enqueue(
      plan([FAILING]),
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
      ['run', 'Add a Negate method to Calc', '--workspace', workspace, '--yes', '--max-iterations', '1', '--json'],
      env,
    );
    assert.equal(result.code, 3, result.stderr);
    assert.ok(!result.states.some((state) => state.currentNode === 'SUCCESS'));
    const final = result.states.at(-1) as unknown as Final;
    assert.match(
      String(final.metadata.ignoredKnownFailures),
      /approved by --yes, which excuses no failing test \(--accept-known-failures does\)/,
    );
    assert.equal(fake.pending, 0);
  });
});
