// The compile gate on fresh clones (no obj/: never restored), end to end through the real CLI, the
// real engine and dotnet, with a scripted model: the coder fixes the code AND adds a test file in
// the same turn, asks check_code, and submits. On xunit, NUnit with central package management and
// MSTest 4 on Microsoft.Testing.Platform it is never bounced: check_code judges the test project and
// finds nothing, the gate passes at once, one iteration, and the model is asked exactly the turns
// scripted. (The engine starts loading while the baseline restores: it has to follow the restore.)

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic, FakeRequest } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, removeDir, startCli, traceEvents } from '../support/cli-harness';
import { ensureEngineBuilt } from '../support/roslyn-engine';

interface FreshCase {
  fixture: string;
  fix: { path: string; old_str: string; new_str: string };
  test: { path: string; text: string };
  /** What check_code compiles: the projects holding the edits and those depending on them. */
  compiled: string;
}

const CASES: FreshCase[] = [
  {
    fixture: 'xunit-multi',
    fix: { path: 'src/Units/Temperature.cs', old_str: 'fahrenheit - 32 * 5 / 9', new_str: '(fahrenheit - 32) * 5 / 9' },
    test: {
      path: 'tests/Units.Tests/BoilingTests.cs',
      text: 'using Units;\n\nnamespace Units.Tests;\n\npublic class BoilingTests\n{\n    [Theory]\n    [InlineData(212, 100)]\n    public void Boils(double f, double c) => Assert.Equal(c, Temperature.FahrenheitToCelsius(f), 6);\n}\n',
    },
    compiled: 'Units(net10.0), Units(net8.0), Units.Tests(net10.0), Units.Tests(net8.0)',
  },
  {
    fixture: 'nunit',
    fix: { path: 'src/Geometry/Shapes.cs', old_str: '=> 2 * width + height;', new_str: '=> 2 * (width + height);' },
    test: {
      path: 'tests/Geometry.NUnit4.Tests/SquarePerimeterTests.cs',
      text: 'namespace Geometry.NUnit4.Tests;\n\npublic class SquarePerimeterTests\n{\n    [TestCase(3, 12)]\n    public void Square(int side, int perimeter) => Assert.That(Shapes.RectanglePerimeter(side, side), Is.EqualTo(perimeter));\n}\n',
    },
    compiled: 'Geometry, Geometry.NUnit3.Tests, Geometry.NUnit4.Tests, Geometry.NUnit5.Tests',
  },
  {
    fixture: 'mtp-ledger',
    fix: {
      path: 'src/Ledger/Account.cs',
      old_str: '        Balance += amount;\n    }\n\n    public static',
      new_str: '        Balance -= amount;\n    }\n\n    public static',
    },
    test: {
      path: 'tests/Ledger.MSTests/WithdrawTests.cs',
      text:
        'using Microsoft.VisualStudio.TestTools.UnitTesting;\n\nnamespace Ledger.MSTests;\n\n[TestClass]\npublic sealed class WithdrawTests\n{\n    [TestMethod]\n    [DataRow(10, 3, 7)]\n' +
        '    public void Withdraw_Subtracts(int deposit, int withdraw, int left)\n    {\n        var account = new Account();\n        account.Deposit(deposit);\n        account.Withdraw(withdraw);\n        Assert.AreEqual((decimal)left, account.Balance);\n    }\n}\n',
    },
    compiled: 'Ledger, Ledger.MSTests, Ledger.XunitTests',
  },
];

/** The text of the last tool_result the model was sent (the answer to its previous call). */
function lastToolResult(request: FakeRequest): string {
  const last = request.body.messages.at(-1);
  const blocks = Array.isArray(last?.content) ? last.content : [];
  const result = blocks.filter((b) => b.type === 'tool_result').at(-1);
  const content = result?.content;
  return typeof content === 'string' ? content : JSON.stringify(content ?? '');
}

describe('the compile gate on fresh clones: fix the code and add a test file, never bounced (real CLI, engine, dotnet)', function () {
  this.timeout(900_000);
  let fake: FakeAnthropic;
  const workspaces: string[] = [];

  before(async () => {
    ensureCliBuilt();
    await ensureEngineBuilt();
    fake = await startFakeAnthropic();
  });

  after(async () => {
    await fake.close();
    for (const dir of workspaces) removeDir(dir);
  });

  for (const c of CASES) {
    it(`${c.fixture}: one iteration, the coder's own turns, check_code and the gate find nothing`, async () => {
      const workspace = copyFixture(c.fixture);
      workspaces.push(workspace);
      assert.equal(existsSync(path.join(workspace, path.dirname(c.test.path), 'obj')), false, 'a fresh clone: never restored');
      const asked = fake.requests.length;
      let checked = '';
      fake.enqueue(
        toolUse('submit_plan', {
          spec: 'Fix the bug and cover it with a new test file.',
          plan: {
            summary: 'Fix and test',
            steps: [
              { number: 1, description: 'Fix the bug', actionType: 'MODIFY', filePath: c.fix.path, rationale: 'the failing tests' },
              { number: 2, description: 'Add a test', actionType: 'CREATE', filePath: c.test.path, rationale: 'cover the fix' },
            ],
            affectedFiles: [c.fix.path, c.test.path],
            complexity: 'LOW',
          },
        }),
        toolUse('str_replace_based_edit_tool', { command: 'str_replace', ...c.fix }),
        toolUse('str_replace_based_edit_tool', { command: 'create', path: c.test.path, file_text: c.test.text }),
        toolUse('check_code', {}),
        (request) => {
          checked = lastToolResult(request);
          return toolUse('submit_changes', { summary: 'Fixed, with a new test file.' });
        },
      );
      const scripted = fake.pending;
      const cli = startCli(['run', 'Fix the bug and add a test for it', '--workspace', workspace, '--yes', '--json'], {
        ANTHROPIC_API_KEY: 'sk-test',
        ANTHROPIC_BASE_URL: fake.url,
        IRONBEES_ROSLYN: '1',
      });
      const result = await cli.done;
      assert.equal(result.code, 0, result.stderr);
      assert.equal(fake.pending, 0, 'every scripted answer was used');
      assert.equal(fake.requests.length - asked, scripted, 'the model was asked exactly the scripted turns');
      assert.equal(checked, `No new compile errors (compiled ${c.compiled} with your staged edits).`);
      const final = result.states.at(-1) as unknown as {
        stateId: string;
        currentNode: string;
        iterationCount: number;
        testResult: { failed: number };
      };
      assert.equal(final.currentNode, 'SUCCESS');
      assert.equal(final.iterationCount, 1);
      assert.equal(final.testResult.failed, 0);
      const events = traceEvents(workspace, final.stateId);
      assert.deepEqual(
        events.filter((e) => e.kind === 'compile_check').map((e) => ({ round: e.round, ok: e.ok, errors: e.errors, detail: e.detail })),
        [{ round: 1, ok: true, errors: 0, detail: undefined }],
      );
      const transitions = events.filter((e) => e.kind === 'transition').map((e) => e.to);
      assert.equal(transitions.filter((t) => t === 'CODE').length, 1);
      assert.equal(transitions.filter((t) => t === 'VALIDATE').length, 1);
    });
  }
});
