// `ironbees resume` keeps the fallback the run started with (issue 13): a run begun with
// --fallback-provider/--fallback-model stops at its plan gate; its primary then goes down, and
// `resume` (given no fallback flags) finishes the run on the fallback model. Without the fallback
// restored the coder's calls would fail against the primary and the run would not succeed.
// Real CLI, real dotnet, the real openai SDK against a local fake.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { chatError, chatToolCall, startFakeOpenAI } from '../support/fake-openai';
import type { FakeOpenAI, FakeOpenAIRequest, FakeOpenAITurn, FakeOpenAIError } from '../support/fake-openai';
import { copyFixture, ensureCliBuilt, removeDir, runCli, traceEvents } from '../support/cli-harness';

const SOURCE = 'src/Calculator/Calculator.cs';
const PRIMARY = 'primary-model';
const BACKUP = 'backup-model';
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
const EDIT = { command: 'str_replace', path: SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' };
const NO_CREDENTIALS = { ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };

describe('ironbees resume restores the fallback provider/model (real CLI, real dotnet)', function () {
  this.timeout(420_000);
  let fake: FakeOpenAI;
  let workspace: string;

  before(() => ensureCliBuilt());
  beforeEach(async () => {
    fake = await startFakeOpenAI();
    workspace = copyFixture('calculator');
  });
  afterEach(async () => {
    await fake.close();
    removeDir(workspace);
  });

  it('a run stopped at its plan gate resumes on the fallback model when the primary is down', async () => {
    let primaryUp = true;
    const primaryScript: FakeOpenAITurn[] = [chatToolCall('submit_plan', PLAN)];
    const backupScript: FakeOpenAITurn[] = [
      chatToolCall('str_replace_based_edit_tool', EDIT),
      chatToolCall('submit_changes', { summary: 'Divide now divides.' }),
    ];
    // Each request is routed by the model it names: the primary answers while up, then fails with 500s.
    const route = (request: FakeOpenAIRequest): FakeOpenAITurn | FakeOpenAIError => {
      const script = request.body.model === PRIMARY ? (primaryUp ? primaryScript : []) : request.body.model === BACKUP ? backupScript : [];
      return script.shift() ?? chatError(500, { message: `fake-openai: ${request.body.model} is down` });
    };
    fake.enqueue(...Array.from({ length: 40 }, () => route));
    const env = { ...NO_CREDENTIALS, OPENAI_BASE_URL: fake.url };

    const first = await runCli(
      [
        'run',
        'Fix the failing Calculator test',
        '--workspace',
        workspace,
        '--provider',
        'openai',
        '--model',
        PRIMARY,
        '--fallback-provider',
        'openai',
        '--fallback-model',
        BACKUP,
        '--json',
      ],
      env,
      '',
    );
    assert.equal(first.code, 130, first.stderr);
    const stopped = first.states.at(-1);
    assert.ok(stopped);
    assert.equal(stopped.currentNode, 'WAIT_PLAN_APPROVAL');
    assert.deepEqual((stopped.metadata as Record<string, unknown>).fallback, { provider: 'openai', model: BACKUP });
    assert.deepEqual(
      fake.requests.map((r) => r.body.model),
      [PRIMARY],
      'the plan came from the primary',
    );

    primaryUp = false;
    const resumed = await runCli(['resume', stopped.stateId, '--workspace', workspace, '--yes', '--json'], env);
    assert.equal(resumed.code, 0, resumed.stderr);
    const final = resumed.states.at(-1);
    assert.equal(final?.currentNode, 'SUCCESS');
    assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /return a \/ b;/);
    const afterResume = fake.requests.slice(1);
    assert.equal(afterResume.filter((r) => r.body.model === BACKUP).length, 2, 'the coder\u2019s two calls were answered by the fallback');
    assert.ok(
      afterResume.some((r) => r.body.model === PRIMARY),
      'the primary was tried first',
    );
    assert.ok(afterResume.every((r) => r.body.model === PRIMARY || r.body.model === BACKUP));
    const switches = traceEvents(workspace, stopped.stateId).filter((e) => e.kind === 'model_fallback');
    assert.ok(switches.length >= 1, 'the switch is traced');
    assert.equal(switches[0].to, `openai/${BACKUP}`, JSON.stringify(switches[0]));
  });
});
