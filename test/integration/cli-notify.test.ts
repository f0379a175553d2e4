// `ironbees run --notify-webhook`: the real CLI, real dotnet, the fake Messages API and a local
// receiver. With --yes nobody is needed at the gates: one signed run_ended, and the exit code is the run's.

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, removeDir, runCli } from '../support/cli-harness';
import { startWebhookReceiver } from '../support/webhook-receiver';
import type { WebhookReceiver } from '../support/webhook-receiver';

const SOURCE = 'src/Calculator/Calculator.cs';
const PLAN = {
  spec: 'Calc.Divide returns a / b.',
  plan: {
    summary: 'Fix the wrong operator in Calc.Divide.',
    steps: [{ number: 1, description: 'Return a / b', actionType: 'MODIFY', filePath: SOURCE, rationale: '6 / 3 = 2' }],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

describe('ironbees run --notify-webhook (real dotnet, fake Messages API)', function () {
  this.timeout(600_000);
  let fake: FakeAnthropic;
  let receiver: WebhookReceiver;
  let workspace: string;

  before(async () => {
    ensureCliBuilt();
    fake = await startFakeAnthropic();
    receiver = await startWebhookReceiver();
    workspace = copyFixture('calculator');
  });
  after(async () => {
    await fake?.close();
    await receiver?.close();
    removeDir(workspace);
  });

  it('posts one signed run_ended when the run succeeds', async () => {
    fake.enqueue(
      toolUse('submit_plan', PLAN),
      toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' }),
      toolUse('submit_changes', { summary: 'Fixed.' }),
    );
    const result = await runCli(
      ['run', 'Fix the failing Calculator test', '--workspace', workspace, '--yes', '--json', '--notify-webhook', receiver.url],
      { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url, IRONBEES_NOTIFY_SECRET: 'cli-secret' },
    );
    assert.equal(result.code, 0, result.stderr);
    const runId = result.states.at(-1)?.stateId;
    // Delivered before the process ended: the CLI waits for its notifications, not the run for them.
    assert.equal(receiver.received.length, 1, receiver.received.map((h) => h.body).join('\n'));
    const [hook] = receiver.received;
    assert.equal(hook.headers['x-ironbees-signature'], `sha256=${createHmac('sha256', 'cli-secret').update(hook.body).digest('hex')}`);
    const body = JSON.parse(hook.body) as Record<string, unknown>;
    assert.deepEqual([body.event, body.runId, body.node], ['run_ended', runId, 'SUCCESS']);
    assert.match(String(body.summary), /^Run \S+ ended SUCCESS after 1 iteration\(s\), tests \d+\/\d+ passing\.$/);
  });
});
