// The check before review, end to end: the real CLI on the warehouse fixture, a scripted model whose
// coder first writes `item.Price` (StockItem has UnitPrice). The system compiles the staged edit
// when the coder submits, hands CS1061 back as the answer to submit_changes, the coder fixes it,
// and the run reaches SUCCESS in one iteration: the broken diff never reached review or the build.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic, FakeRequest } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, removeDir, startCli, traceEvents } from '../support/cli-harness';
import { ensureEngineBuilt } from '../support/roslyn-engine';

const LOADER = 'src/Shipping/Loader.cs';
const CS1061 =
  "src/Shipping/Loader.cs:16:73: error CS1061: 'StockItem' does not contain a definition for 'Price' and no accessible extension method 'Price' " +
  "accepting a first argument of type 'StockItem' could be found (are you missing a using directive or an assembly reference?)";

/** The text of the last tool_result the model was sent (the answer to its previous call). */
function lastToolResult(request: FakeRequest): string {
  const last = request.body.messages.at(-1);
  const blocks = Array.isArray(last?.content) ? last.content : [];
  const result = blocks.filter((b) => b.type === 'tool_result').at(-1);
  const content = result?.content;
  return typeof content === 'string' ? content : JSON.stringify(content ?? '');
}

describe('the compile gate before review (real CLI, real engine, real dotnet, fake Messages API)', function () {
  this.timeout(600_000);
  let fake: FakeAnthropic;
  let workspace: string | null = null;

  before(async () => {
    ensureCliBuilt();
    await ensureEngineBuilt();
    fake = await startFakeAnthropic();
  });

  after(async () => {
    await fake.close();
    if (workspace) removeDir(workspace);
  });

  it('a coder that writes item.Price gets CS1061 back before review and reaches SUCCESS in one iteration', async () => {
    workspace = copyFixture('warehouse');
    let handedBack = '';
    fake.enqueue(
      toolUse('submit_plan', {
        spec: 'Loader.Value returns the stock value: Quantity times UnitPrice.',
        plan: {
          summary: 'Multiply by the unit price in Loader.Value',
          steps: [
            {
              number: 1,
              description: 'Value returns Quantity * UnitPrice',
              actionType: 'MODIFY',
              filePath: LOADER,
              rationale: 'the test expects it',
            },
          ],
          affectedFiles: [LOADER],
          complexity: 'LOW',
        },
      }),
      toolUse('str_replace_based_edit_tool', {
        command: 'str_replace',
        path: LOADER,
        old_str: '=> item.Quantity;',
        new_str: '=> item.Quantity * item.Price;',
      }),
      toolUse('submit_changes', { summary: 'Value multiplies by the price.' }),
      (request) => {
        handedBack = lastToolResult(request);
        return toolUse('str_replace_based_edit_tool', {
          command: 'str_replace',
          path: LOADER,
          old_str: 'item.Price;',
          new_str: 'item.UnitPrice;',
        });
      },
      toolUse('submit_changes', { summary: 'Value multiplies by the unit price.' }),
    );
    const cli = startCli(['run', 'Make Loader.Value return the stock value', '--workspace', workspace, '--yes', '--json'], {
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: fake.url,
      IRONBEES_ROSLYN: '1',
      IRONBEES_DEBUG: undefined,
    });
    const result = await cli.done;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.pending, 0, 'every scripted answer was used');
    const final = result.states.at(-1) as unknown as {
      stateId: string;
      currentNode: string;
      iterationCount: number;
      testResult: { total: number; failed: number };
    };
    assert.equal(final.currentNode, 'SUCCESS');
    assert.equal(final.iterationCount, 1);
    assert.equal(final.testResult.failed, 0);
    assert.equal(
      handedBack,
      'Not submitted yet: the system compiled your staged edits (check 1 of 3) and found 1 new compile error(s) in Shipping, Shipping.Tests with your staged edits:\n' +
        `${CS1061}\nFix them, then call submit_changes again.`,
    );
    assert.match(readFileSync(path.join(workspace, LOADER), 'utf8'), /=> item\.Quantity \* item\.UnitPrice;/);
    // At default verbosity (no IRONBEES_DEBUG) the person is told what the engine loaded, never how long
    // each of its internal phases took (those are debug lines).
    assert.match(result.stderr, /^C# engine: loaded Warehouse\.slnx \(3 projects, \d+ files\)$/m);
    assert.doesNotMatch(result.stderr, /load took|firstProject|lastProject|evaluate \d|\d ms\b/);

    const checks = traceEvents(workspace, final.stateId).filter((e) => e.kind === 'compile_check');
    assert.deepEqual(
      checks.map((e) => ({ round: e.round, ok: e.ok, errors: e.errors, detail: e.detail })),
      [
        { round: 1, ok: false, errors: 1, detail: CS1061 },
        { round: 2, ok: true, errors: 0, detail: undefined },
      ],
    );
    // The review and the build only ever saw the fixed diff: one coder step, one validation.
    const transitions = traceEvents(workspace, final.stateId)
      .filter((e) => e.kind === 'transition')
      .map((e) => e.to);
    assert.equal(transitions.filter((t) => t === 'CODE').length, 1);
    assert.equal(transitions.filter((t) => t === 'VALIDATE').length, 1);
  });
});
