// The real CLI prints the live activity on stderr as it happens: with the real SDK against a
// scripted fake Messages API, a planner that reads a file and searches is followed line by line,
// and stdout keeps its contract (one CodingState per line) under --json.

import assert from 'node:assert/strict';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, removeDir, runCli } from '../support/cli-harness';

const SOURCE = 'src/Calculator/Calculator.cs';
const PLAN = {
  spec: 'Calc.Divide returns a / b.',
  plan: {
    summary: 'Fix the wrong operator in Calc.Divide.',
    steps: [{ number: 1, description: 'Return a / b', actionType: 'MODIFY', filePath: SOURCE, rationale: 'The test expects 6 / 3 = 2' }],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

describe('ironbees CLI: the live activity on stderr (real dotnet, real SDK, fake Messages API)', function () {
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

  it('a planner that reads a file and searches: its words and each tool call, as lines, before the plan; stdout stays CodingState JSON', async () => {
    fake.enqueue(
      toolUse('read_file', { path: SOURCE, limit: 12 }, { text: 'Let me look at Divide first.' }),
      toolUse('search_text', { query: 'Divide(', filePattern: '*.cs' }),
      toolUse('read_file', { path: 'src/Nope.cs' }),
      toolUse('submit_plan', PLAN, { text: 'It multiplies instead of dividing.' }),
    );
    // No --yes and nothing on stdin: the run stops at the plan approval, kept (exit 130).
    const result = await runCli(['run', 'Fix Divide', '-w', workspace, '--json'], {
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: fake.url,
    });
    assert.equal(result.code, 130, result.stderr);

    const activity = result.stderr.split('\n').filter((line) => /^ {2}planner [·›✕] /.test(line));
    assert.deepEqual(activity, [
      '  planner › Let me look at Divide first.',
      `  planner · read ${SOURCE} lines 1–12 of 20`,
      '  planner · searched "Divide(" in *.cs — 3 matches',
      '  planner ✕ read_file src/Nope.cs — failed: The path src/Nope.cs does not exist.',
      '  planner › It multiplies instead of dividing.',
      '  planner · submitted the plan',
    ]);
    // Seen before the plan is shown.
    assert.ok(
      result.stderr.indexOf('planner · submitted the plan') < result.stderr.indexOf('Fix the wrong operator in Calc.Divide.'),
      result.stderr,
    );
    for (const line of result.stdout.trim().split('\n'))
      assert.equal(typeof (JSON.parse(line) as { currentNode: unknown }).currentNode, 'string', line);
    assert.equal(result.states.at(-1)?.currentNode, 'WAIT_PLAN_APPROVAL');
  });

  it("--activity verbose: a streamed reply's words in full, in order, each once, before its turn line", async () => {
    fake.enqueue(toolUse('submit_plan', PLAN, { text: 'Divide multiplies instead of dividing.\n\nI will change the operator to /.' }));
    const result = await runCli(['run', 'Fix Divide', '-w', workspace, '--activity', 'verbose'], {
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: fake.url,
    });
    assert.equal(result.code, 130, result.stderr);

    const activity = result.stderr.split('\n').filter((line) => /^ {2}planner( [·›✕] | turn \d+: )/.test(line));
    assert.deepEqual(activity.slice(0, 2), [
      '  planner › Divide multiplies instead of dividing.',
      '  planner › I will change the operator to /.',
    ]);
    assert.match(activity[2], /^ {2}planner turn 1: \d[\d,]* in \/ \d[\d,]* out tokens/);
    assert.deepEqual(activity.slice(3), ['  planner · submitted the plan']);
    // The run's cost so far follows the turn line rather than cutting the words in two.
    assert.ok(result.stderr.indexOf('  run so far: ') > result.stderr.indexOf('  planner turn 1: '), result.stderr);
  });
});
