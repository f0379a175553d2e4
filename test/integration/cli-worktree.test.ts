// `ironbees run --worktree` with the built CLI, real git and real dotnet on a repository made from the
// calculator fixture, each run with its own fake Messages API: two runs work in one repository at the
// same time and both succeed, each leaving its branch with exactly its commits (one per applied
// iteration, the coder's summary as the message) and no worktree; the working tree keeps every byte;
// `ironbees apply` brings a branch's change in (and refuses over local changes without --force); a
// run killed outright is cleaned up by the next command, which says so.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic, FakeScriptItem } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, removeDir, runCli, startCli, until } from '../support/cli-harness';
import type { CliRun } from '../support/cli-harness';

const SOURCE = 'src/Calculator/Calculator.cs';
const PLAN = {
  spec: 'Calc.Divide returns a / b.',
  plan: {
    summary: 'Fix the operator in Calc.Divide.',
    steps: [{ number: 1, description: 'Return a / b', actionType: 'MODIFY', filePath: SOURCE, rationale: 'The test expects 6 / 3 = 2' }],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

function edit(oldStr: string, newStr: string): FakeScriptItem {
  return toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: oldStr, new_str: newStr });
}

/** Every file of the working tree but .git and .ironbees, with its bytes. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const rel of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    if (/^(\.git|\.ironbees)([\\/]|$)/.test(rel)) continue;
    const abs = path.join(dir, rel);
    files.set(rel, fs.statSync(abs).isFile() ? fs.readFileSync(abs, 'base64') : '<dir>');
  }
  return files;
}

/** The first answer of a run waits until the other run has called its model too: both are at work at once. */
function afterOther(other: () => FakeAnthropic): FakeScriptItem {
  return async () => {
    await until(() => other().requests.length > 0, 240_000, 50);
    return toolUse('submit_plan', PLAN);
  };
}

describe('ironbees run --worktree (built CLI, real git and dotnet, fake Messages API)', function () {
  this.timeout(1_200_000);
  let repo: string;
  let fakeA: FakeAnthropic;
  let fakeB: FakeAnthropic;
  let fakeC: FakeAnthropic;
  const running: CliRun[] = [];
  const envFor = (fake: FakeAnthropic): Record<string, string> => ({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url });

  before(async () => {
    ensureCliBuilt();
    [fakeA, fakeB, fakeC] = await Promise.all([startFakeAnthropic(), startFakeAnthropic(), startFakeAnthropic()]);
    repo = copyFixture('calculator');
    git(repo, 'init', '--quiet', '--initial-branch=main');
    git(repo, 'config', 'user.email', 'person@example.com');
    git(repo, 'config', 'user.name', 'Person');
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'initial');
  });
  after(async () => {
    for (const run of running) {
      try {
        process.kill(-(run.child.pid as number), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await Promise.all([fakeA.close(), fakeB.close(), fakeC.close()]);
    removeDir(repo);
  });

  let runA = '';
  let runB = '';
  let original: Map<string, string>;

  it('two runs in one repository at once both succeed, each with its branch and commits, no worktree left, the working tree untouched', async () => {
    original = snapshot(repo);
    const head = git(repo, 'rev-parse', 'HEAD');
    // A: one iteration. B: a first attempt that builds but fails the test, then the fix: two commits.
    fakeA.enqueue(
      afterOther(() => fakeB),
      edit('return a * b;', 'return a / b;'),
      toolUse('submit_changes', { summary: 'Divide now divides.' }),
    );
    fakeB.enqueue(
      afterOther(() => fakeA),
      edit('return a * b;', 'return a - b;'),
      toolUse('submit_changes', { summary: 'Tried a subtraction.' }),
      edit('return a - b;', 'return a / b;'),
      toolUse('submit_changes', { summary: 'Divide uses the division operator.' }),
    );
    const args = (request: string): string[] => ['run', request, '--workspace', repo, '--yes', '--json', '--worktree'];
    const first = startCli(args('Fix Divide'), envFor(fakeA));
    const second = startCli(args('Fix Divide, again'), envFor(fakeB));
    running.push(first, second);
    const [a, b] = await Promise.all([first.done, second.done]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    assert.equal(fakeA.pending + fakeB.pending, 0, 'every scripted answer was used');
    runA = a.states.at(-1)?.stateId ?? '';
    runB = b.states.at(-1)?.stateId ?? '';
    assert.deepEqual([a.states.at(-1)?.currentNode, b.states.at(-1)?.currentNode], ['SUCCESS', 'SUCCESS']);
    assert.deepEqual([a.states.at(-1)?.iterationCount, b.states.at(-1)?.iterationCount], [1, 2]);

    assert.equal(git(repo, 'log', '--format=%s', `${head}..ironbees/${runA}`), 'Divide now divides.');
    assert.equal(git(repo, 'log', '--format=%s', `${head}..ironbees/${runB}`), 'Divide uses the division operator.\nTried a subtraction.');
    assert.equal(git(repo, 'show', '--name-only', '--format=', `ironbees/${runA}`), SOURCE, 'the commit holds the edit, no build output');
    assert.match(git(repo, 'show', `ironbees/${runA}:${SOURCE}`), /return a \/ b;/);
    assert.equal(git(repo, 'rev-parse', 'HEAD'), head, "the person's branch did not move");
    assert.deepEqual(
      git(repo, 'worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree ')),
      [`worktree ${fs.realpathSync(repo)}`],
    );
    assert.deepEqual(
      fs.readdirSync(path.join(repo, '.ironbees', 'worktrees')).sort(),
      [`${runA}.json`, `${runB}.json`].sort(),
      'only the records stay',
    );
    assert.deepEqual(snapshot(repo), original, 'the working tree keeps every byte');
    assert.equal(git(repo, 'status', '--porcelain'), '?? .ironbees/', 'nothing but the ignored run folders is new');
    assert.match(a.stderr, new RegExp(`Run ${runA} works in .* on branch ironbees/${runA}`));

    // The runs are found where runs, trace and resume look.
    const runs = await runCli(['runs', '--workspace', repo, '--json'], {});
    assert.equal(runs.code, 0, runs.stderr);
    const listed = runs.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { runId: string; currentNode: string });
    assert.deepEqual(
      listed.map((r) => [r.runId, r.currentNode]).sort(),
      [
        [runA, 'SUCCESS'],
        [runB, 'SUCCESS'],
      ].sort(),
    );
    const trace = await runCli(['trace', runB, '--workspace', repo, '--json'], {});
    assert.equal(trace.code, 0, trace.stderr);
  });

  it('apply brings a branch in as working-tree changes; refuses over local changes unless --force', async () => {
    assert.ok(runA && runB, 'the runs above succeeded');
    const applied = await runCli(['apply', runA, '--workspace', repo, '--yes'], {});
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, new RegExp(`modified ${SOURCE}\\nApplied 1 of 1 file from ironbees/${runA}`));
    assert.equal(
      fs.readFileSync(path.join(repo, SOURCE), 'utf8'),
      execFileSync('git', ['show', `ironbees/${runA}:${SOURCE}`], { cwd: repo, encoding: 'utf8' }),
    );
    assert.equal(
      execFileSync('git', ['status', '--porcelain'], { cwd: repo, encoding: 'utf8' }),
      ` M ${SOURCE}\n?? .ironbees/\n`,
      'changed in the working tree, nothing staged',
    );

    const refused = await runCli(['apply', runB, '--workspace', repo, '--yes'], {});
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, new RegExp(`local changes the run did not start from: ${SOURCE}\\. .*--force`));
    const forced = await runCli(['apply', runB, '--workspace', repo, '--yes', '--force'], {});
    assert.equal(forced.code, 0, forced.stderr);
    git(repo, 'checkout', '--', SOURCE);
    assert.deepEqual(snapshot(repo), original);

    // Revert of a worktree run deletes its branch and writes nothing in the working tree.
    const reverted = await runCli(['revert', runB, '--workspace', repo], {});
    assert.equal(reverted.code, 0, reverted.stderr);
    assert.match(reverted.stdout, new RegExp(`Deleted branch ironbees/${runB}\\.`));
    assert.equal(git(repo, 'branch', '--list', `ironbees/${runB}`), '');
    assert.deepEqual(snapshot(repo), original);
  });

  it('a run killed outright is cleaned up by the next command, which says so', async () => {
    const untouched = snapshot(repo);
    let planned = false;
    // The planner's call never gets its answer: the run is killed while it waits.
    fakeC.enqueue(() => {
      planned = true;
      return new Promise(() => undefined);
    });
    const killed = startCli(['run', 'Fix Divide', '--workspace', repo, '--yes', '--json', '--worktree'], envFor(fakeC));
    running.push(killed);
    assert.ok(await until(() => planned, 240_000), 'the planner called the model');
    const runC = fs
      .readdirSync(path.join(repo, '.ironbees', 'worktrees'))
      .filter((n) => n.endsWith('.json'))
      .map((n) => n.slice(0, -5))
      .find((id) => id !== runA && id !== runB);
    assert.ok(runC);
    const worktree = path.join(repo, '.ironbees', 'worktrees', runC);
    assert.ok(fs.existsSync(worktree));
    // While it works, `runs` lists it beside the others, read in its worktree.
    const during = await runCli(['runs', '--workspace', repo, '--json'], {});
    const listed = during.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { runId: string; currentNode: string; worktree?: unknown });
    assert.deepEqual(
      listed.find((r) => r.runId === runC),
      { ...listed.find((r) => r.runId === runC), currentNode: 'PLAN', worktree: { branch: `ironbees/${runC}`, active: true } },
    );
    process.kill(-(killed.child.pid as number), 'SIGKILL');
    await killed.done;

    const next = await runCli(['runs', '--workspace', repo], {});
    assert.equal(next.code, 0, next.stderr);
    assert.match(
      next.stderr,
      new RegExp(
        `Cleaned up after run ${runC}, which stopped without ending \\(process ${killed.child.pid}\\): its worktree ${worktree} was removed\\.`,
      ),
    );
    assert.match(next.stderr, new RegExp(`The run committed nothing; branch ironbees/${runC} was deleted\\.`));
    assert.equal(fs.existsSync(worktree), false);
    assert.equal(git(repo, 'branch', '--list', `ironbees/${runC}`), '');
    assert.equal(
      git(repo, 'worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree ')).length,
      1,
    );
    const again = await runCli(['runs', '--workspace', repo], {});
    assert.doesNotMatch(again.stderr, /Cleaned up/, 'cleaned once');
    assert.deepEqual(snapshot(repo), untouched);
  });
});
