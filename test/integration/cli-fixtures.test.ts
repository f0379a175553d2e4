// The real CLI on the other C# fixtures: the multi-project solution (an edit in the bottom library
// builds and tests what depends on it) and a project that does not compile (the baseline build
// fails; the coder fixes it). Plus the setups that must stop before anything runs: no project, and
// a workspace agent that could never finish its step. Real dotnet, the real SDK, a fake Messages API.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic, FakeRequest } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, readRunFile, removeDir, runCli, startCli, traceEvents, until } from '../support/cli-harness';

function planFor(filePath: string, description: string, spec: string): { spec: string; plan: Record<string, unknown> } {
  return {
    spec,
    plan: {
      summary: description,
      steps: [{ number: 1, description, actionType: 'MODIFY', filePath, rationale: 'asked for' }],
      affectedFiles: [filePath],
      complexity: 'LOW',
    },
  };
}

function replace(filePath: string, oldStr: string, newStr: string): ReturnType<typeof toolUse> {
  return toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: filePath, old_str: oldStr, new_str: newStr });
}

function firstUserText(request: FakeRequest): string {
  const first = request.body.messages[0];
  return typeof first?.content === 'string' ? first.content : JSON.stringify(first?.content);
}

/**
 * Live MSBuild servers and nodes (Linux only) whose environment carries `name=prefix…`. The compiler server
 * (VBCSCompiler) inherits the environment of the build that started it but is shared by every
 * build on the machine and exits when idle, so the run deliberately leaves it alone.
 */
function processesWithEnv(name: string, prefix: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('VBCSCompiler')) continue;
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (environ.some((line) => line.startsWith(`${name}=${prefix}`))) found.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

describe('ironbees CLI on the multi-project and the broken fixtures (real dotnet, real SDK, fake Messages API)', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  let workspace: string | null = null;
  let env: Record<string, string>;

  before(() => ensureCliBuilt());
  beforeEach(async () => {
    fake = await startFakeAnthropic();
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url };
  });
  afterEach(async () => {
    await fake.close();
    if (workspace) removeDir(workspace);
    workspace = null;
  });

  it('multi: an edit in the bottom library builds and tests both test projects, succeeds, and leaves no build server behind', async () => {
    workspace = copyFixture('multi');
    const SLUG = 'src/TextKit/Slug.cs';
    fake.enqueue(
      toolUse('read_file', { path: SLUG }),
      toolUse(
        'submit_plan',
        planFor(
          SLUG,
          'Add Slug.Truncated(text, maxLength)',
          'Slug.Truncated cuts a slug to maxLength characters; every existing test still passes.',
        ),
      ),
      replace(
        SLUG,
        'public static class Slug\n{\n',
        'public static class Slug\n{\n    /// <summary>The slug of the text, at most maxLength characters long.</summary>\n' +
          "    public static string Truncated(string text, int maxLength)\n    {\n        var slug = From(text);\n        return slug.Length <= maxLength ? slug : slug[..maxLength].TrimEnd('-');\n    }\n\n",
      ),
      toolUse('submit_changes', { summary: 'Added Slug.Truncated.' }),
    );
    const cli = startCli(['run', 'Add Slug.Truncated', '--workspace', workspace, '--yes', '--json'], env);
    const result = await cli.done;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.pending, 0, 'every scripted answer was used');
    const final = result.states.at(-1) as unknown as Record<string, unknown> & {
      stateId: string;
      currentNode: string;
      testResult: { total: number; failed: number };
    };
    assert.equal(final.currentNode, 'SUCCESS');
    assert.equal(final.iterationCount, 1);
    assert.equal(final.testResult.total, 6, 'the tests of TextKit and of Reporting, which uses it');
    assert.equal(final.testResult.failed, 0);
    assert.match(readFileSync(path.join(workspace, SLUG), 'utf8'), /public static string Truncated/);

    const validations = traceEvents(workspace, final.stateId).filter((e) => e.kind === 'validation');
    const baseline = validations.find((e) => e.phase === 'baseline');
    assert.match(String(baseline?.detail), /Multi\.sln: build ok/);
    const tests = validations.filter((e) => e.phase === 'test').at(-1);
    assert.match(String(tests?.detail), /TextKit\.Tests/);
    assert.match(String(tests?.detail), /Reporting\.Tests/);
    assert.match(String(tests?.detail), /6 tests: 6 passed/);
    assert.match(
      readRunFile(workspace, final.stateId, 'HANDOFF.md'),
      /### Iteration 1 — applied\n\n```diff\n[^]*\+ {4}public static string Truncated/,
    );

    // The run's MSBuild server and nodes carry its handshake salt; it stops them when it ends.
    if (process.platform === 'linux' && process.env.IRONBEES_DOTNET_BUILD_SERVERS !== '0') {
      const salt = `ironbees-${cli.child.pid as number}-`;
      assert.ok(
        await until(() => processesWithEnv('MSBUILDNODEHANDSHAKESALT', salt).length === 0, 15_000),
        'no MSBuild server or node of the run is left',
      );
    }
  });

  it('broken: the baseline build fails, the planner is told why, and the coder fixes the compile errors', async () => {
    workspace = copyFixture('broken');
    const GREETER = 'Greeter.cs';
    let plannerSawBaseline = false;
    fake.enqueue(
      (request) => {
        plannerSawBaseline = /CS0103/.test(firstUserText(request)) && /CS1061/.test(firstUserText(request));
        return toolUse(
          'submit_plan',
          planFor(GREETER, 'Fix the misspelt names in Greeter', 'Broken.csproj builds: Greet uses name and Length uses text.Length.'),
        );
      },
      replace(GREETER, '{nmae}', '{name}'),
      replace(GREETER, 'text.Lenght', 'text.Length'),
      toolUse('submit_changes', { summary: 'Fixed the two typos.' }),
    );
    const result = await runCli(['run', 'Make the project compile', '--workspace', workspace, '--yes', '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.pending, 0, 'every scripted answer was used');
    assert.ok(plannerSawBaseline, "the planner's first message names the baseline's compile errors");
    const final = result.states.at(-1) as unknown as Record<string, unknown> & {
      stateId: string;
      currentNode: string;
      baseline: { build: { success: boolean; errors: Array<{ code: string }> } };
      buildResult: { success: boolean; warnings: Array<{ code: string }> };
    };
    assert.equal(final.currentNode, 'SUCCESS');
    assert.equal(final.baseline.build.success, false);
    assert.deepEqual([...new Set(final.baseline.build.errors.map((e) => e.code))].sort(), ['CS0103', 'CS1061']);
    assert.equal(final.buildResult.success, true);
    assert.ok(
      final.buildResult.warnings.some((w) => w.code === 'CS0168'),
      'the warning that was already there stays a warning',
    );
    const fixed = readFileSync(path.join(workspace, GREETER), 'utf8');
    assert.match(fixed, /\{name\}/);
    assert.match(fixed, /text\.Length;/);
    const build = traceEvents(workspace, final.stateId)
      .filter((e) => e.kind === 'validation' && e.phase === 'build')
      .at(-1);
    assert.match(String(build?.detail), /Broken\.csproj \(the baseline build failed\): build ok/);
  });
});

describe('ironbees CLI stops before anything runs (exit 2, nothing written)', function () {
  this.timeout(60_000);
  let workspace: string | null = null;
  before(() => ensureCliBuilt());
  afterEach(() => {
    if (workspace) removeDir(workspace);
    workspace = null;
  });

  it('in a folder with no .NET project', async () => {
    workspace = copyFixture('broken');
    for (const file of ['Broken.csproj', 'Greeter.cs']) removeDir(path.join(workspace, file));
    const result = await runCli(['run', 'Fix it', '--workspace', workspace, '--yes'], { ANTHROPIC_API_KEY: 'sk-test' });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /No \.NET solution or project found/);
    assert.equal(existsSync(path.join(workspace, '.ironbees')), false);
  });

  it('with a workspace coder that leaves out submit_changes: the file, the field and what is expected', async () => {
    workspace = copyFixture('calculator');
    const dir = path.join(workspace, '.ironbees', 'agents', 'coder');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'agent.yaml'),
      'name: coder\ndescription: Edits only\nversion: 1.0.0\nrequiredTools: [read_file, str_replace_based_edit_tool]\n',
    );
    writeFileSync(path.join(dir, 'prompt.md'), 'Edit the code.');
    const result = await runCli(['run', 'Fix it', '--workspace', workspace, '--yes', '--trust-workspace'], {
      ANTHROPIC_API_KEY: 'sk-test',
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /\.ironbees\/agents\/coder\/agent\.yaml: requiredTools: must include submit_changes/);
    assert.equal(existsSync(path.join(workspace, '.ironbees', 'runs')), false);
  });
});
