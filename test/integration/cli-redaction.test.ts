// A credential printed by a failing test reaches no sink: not the `--json` stdout, not state.json,
// not validations/*.json, not events.jsonl, and not the model requests (real CLI, real dotnet, fake API).

import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, removeDir, runCli } from '../support/cli-harness';

const SOURCE = 'src/Calculator/Calculator.cs';
const TESTS = 'tests/Calculator.Tests/CalcTests.cs';
/** The model key the CLI is given: shaped like no known key, so only its value can mask it. */
const MODEL_KEY = 'proxy-key-4b7d9e1f2a6c';
const GITHUB_TOKEN = 'ghp_Abc123Def456Ghi789Jkl012Mno345Pqr678';
const AWS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE';
const SECRETS = [MODEL_KEY, GITHUB_TOKEN, AWS_KEY_ID];

describe('ironbees CLI redacts credentials a test prints', function () {
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

  it('masks them in stdout --json, state.json, validations, events.jsonl and every model request', async () => {
    // The failing test prints the three secrets in its failure message and on stdout.
    const tests = path.join(workspace, TESTS);
    writeFileSync(
      tests,
      readFileSync(tests, 'utf8').replace(
        'public void Divide_ReturnsQuotient() => Assert.Equal(2, Calc.Divide(6, 3));',
        `public void Divide_ReturnsQuotient() { System.Console.WriteLine("env ${MODEL_KEY}"); Assert.True(Calc.Divide(6, 3) == 2, "key=${MODEL_KEY} token=${GITHUB_TOKEN} aws=${AWS_KEY_ID}"); }`,
      ),
    );
    let plannerSawFailure = false;
    fake.enqueue(
      (request) => {
        plannerSawFailure = JSON.stringify(request.body.messages).includes('Divide_ReturnsQuotient');
        return toolUse('submit_plan', {
          spec: 'Calc.Divide returns the quotient.',
          plan: {
            summary: 'Fix Divide.',
            steps: [
              {
                number: 1,
                description: 'Divide instead of multiplying',
                actionType: 'MODIFY',
                filePath: SOURCE,
                rationale: 'The test fails',
              },
            ],
            affectedFiles: [SOURCE],
            complexity: 'LOW',
          },
        });
      },
      toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' }),
      toolUse('submit_changes', { summary: 'Divide divides.' }),
    );
    const env = { ANTHROPIC_API_KEY: MODEL_KEY, ANTHROPIC_BASE_URL: fake.url };
    const result = await runCli(['run', 'Fix Divide_ReturnsQuotient', '--workspace', workspace, '--yes', '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(plannerSawFailure, 'the planner was told of the failing test');

    const runId = result.states[0].stateId;
    const runDir = path.join(workspace, '.ironbees', 'runs', runId);
    const baselineText = readFileSync(path.join(runDir, 'validations', 'baseline.json'), 'utf8');
    assert.match(baselineText, /key=\[redacted\] token=\[redacted\] aws=\[redacted\]/, 'the failure is kept, its secrets masked');
    const sinks: Record<string, string> = {
      stdout: result.stdout,
      stderr: result.stderr,
      'state.json': readFileSync(path.join(runDir, 'state.json'), 'utf8'),
      'events.jsonl': readFileSync(path.join(runDir, 'events.jsonl'), 'utf8'),
      'model requests': JSON.stringify(fake.requests.map((request) => request.body)),
    };
    for (const file of readdirSync(path.join(runDir, 'validations')))
      sinks[`validations/${file}`] = readFileSync(path.join(runDir, 'validations', file), 'utf8');
    assert.ok(Object.keys(sinks).length >= 7, Object.keys(sinks).join(', '));
    assert.match(sinks.stdout, /\[redacted\]/, 'stdout carries the failure, masked');
    assert.match(sinks['model requests'], /\[redacted\]/, 'the planner got the failure, masked');
    for (const [sink, text] of Object.entries(sinks)) {
      for (const secret of SECRETS) assert.ok(!text.includes(secret), `${secret} reached ${sink}`);
    }
  });
});
