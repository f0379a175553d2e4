// `ironbees run --parallel N` with the built CLI, real git and real dotnet on a repository made from
// the calculator fixture, against one scripted fake Messages API: phases A and B (independent) run
// at the same time, each in its own worktree; C, after both, starts from their merged result; the
// merged change reaches the working tree and passes the final validation; no worktree or phase
// branch is left. A and B editing the same line: the later one's coder gets both sides and merges
// them; when it does not, the run stops at a person, the conflict named with both sides, the working
// tree untouched. A run killed while its phases work is cleaned up by the
// next command, and its resume runs the phases again to SUCCESS; killed after a phase was merged, the
// next command keeps the integration branch and the resume goes on from it without running that phase.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic, FakeRequest, FakeScriptItem, FakeTurn } from '../support/fake-anthropic';
import { copyFixture, ensureCliBuilt, readRunFile, removeDir, runCli, startCli } from '../support/cli-harness';
import type { CliRun } from '../support/cli-harness';

const CALC = 'src/Calculator/Calculator.cs';
const MOD = 'src/Calculator/Mod.cs';
const NEG = 'src/Calculator/Neg.cs';
const TESTS = 'tests/Calculator.Tests/CalcTests.cs';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

const step = (filePath: string, description: string, actionType = 'MODIFY') => ({
  number: 1,
  description,
  actionType,
  filePath,
  rationale: '',
});
const phase = (id: string, name: string, dependencies: string[], filePath: string, actionType = 'MODIFY') => ({
  id,
  name,
  description: name,
  dependencies,
  steps: [step(filePath, name, actionType)],
  affectedFiles: [filePath],
});

function plan(phases: unknown[]) {
  return { spec: 'Mod.Of and Neg.Of, both tested.', plan: { summary: 'Add Mod and Neg, cover them.', phases, complexity: 'MEDIUM' } };
}

const create = (file: string, text: string): FakeTurn =>
  toolUse('str_replace_based_edit_tool', { command: 'create', path: file, file_text: text });
const edit = (file: string, oldStr: string, newStr: string): FakeTurn =>
  toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: file, old_str: oldStr, new_str: newStr });
const submit = (summary: string): FakeTurn => toolUse('submit_changes', { summary });

function firstMessage(request: FakeRequest): string {
  const content = request.body.messages[0]?.content;
  if (typeof content === 'string') return content;
  return (content ?? []).map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n');
}

function toolResults(request: FakeRequest): string {
  const texts: string[] = [];
  for (const message of request.body.messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_result') texts.push(JSON.stringify(block.content));
  }
  return texts.join('\n');
}

/**
 * Answers each phase's coder from that phase's own script, found by the phase named in its first
 * message. `holdFirst`: the first request of those phases waits until each of them has sent one —
 * an event, not a clock: phases run one at a time never get there, and the test times out.
 */
function phaseRouter(
  scripts: Record<string, Array<(request: FakeRequest) => FakeTurn>>,
  holdFirst: string[],
  arrivals: string[],
): (request: FakeRequest) => Promise<FakeTurn> {
  const arrived = new Map<string, () => void>();
  const all = new Map(holdFirst.map((name) => [name, new Promise<void>((resolve) => arrived.set(name, resolve))]));
  return async (request) => {
    const name = /# Phase \d+ of \d+: (.+)/.exec(firstMessage(request))?.[1]?.trim() ?? '?';
    const script = scripts[name];
    if (!script) throw new Error(`no script for phase ${name}`);
    const first = !arrivals.includes(name);
    if (first) arrivals.push(name);
    if (first && all.has(name)) {
      arrived.get(name)?.();
      await Promise.all(all.values());
    }
    return (script.shift() as (request: FakeRequest) => FakeTurn)(request);
  };
}

describe('ironbees run --parallel (built CLI, real git and dotnet, fake Messages API)', function () {
  this.timeout(1_200_000);
  let fake: FakeAnthropic;
  let repo: string;
  let env: Record<string, string>;

  before(() => ensureCliBuilt());
  beforeEach(async () => {
    fake = await startFakeAnthropic();
    repo = copyFixture('calculator');
    // A green baseline: every phase's own validation needs every test to pass.
    const calc = path.join(repo, CALC);
    fs.writeFileSync(calc, fs.readFileSync(calc, 'utf8').replace('return a * b;', 'return a / b;'));
    git(repo, 'init', '--quiet', '--initial-branch=main');
    git(repo, 'config', 'user.email', 'person@example.com');
    git(repo, 'config', 'user.name', 'Person');
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'initial');
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url };
  });
  afterEach(async () => {
    await fake.close();
    removeDir(repo);
  });

  function leftovers(): { worktrees: string[]; branches: string; dirs: string[] } {
    const dir = path.join(repo, '.ironbees', 'worktrees');
    return {
      worktrees: git(repo, 'worktree', 'list', '--porcelain')
        .split('\n')
        .filter((line) => line.startsWith('worktree ')),
      branches: git(repo, 'branch', '--list', 'ironbees/*'),
      dirs: fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => !name.endsWith('.json')) : [],
    };
  }

  /** The parent run's phases as its state.json holds them now: [id, status, worktree]. */
  function parentPhases(): Array<[string, string, string | undefined]> {
    const runs = path.join(repo, '.ironbees', 'runs');
    const parent = fs.readdirSync(runs).find((name) => /^\d{8}-\d{6}-[0-9a-f]+$/.test(name)) as string;
    const saved = JSON.parse(readRunFile(repo, parent, 'state.json')) as {
      codingState: { phases?: Array<{ phaseId: string; status: string; worktree?: string }> };
    };
    return (saved.codingState.phases ?? []).map((p) => [p.phaseId, p.status, p.worktree]);
  }

  it('runs A and B at once in worktrees, C from their merge; the working tree gets all three and nothing is left', async () => {
    const arrivals: string[] = [];
    let coverSaw = '';
    let liveWhileRunning: unknown = null;
    const scripts: Record<string, Array<(request: FakeRequest) => FakeTurn>> = {
      'Add Mod': [
        () => {
          // Both phases are at work in their worktrees: the parent run's state.json shows them so.
          liveWhileRunning = parentPhases();
          return create(MOD, 'namespace Calculator;\n\npublic static class Mod\n{\n    public static int Of(int a, int b) => a % b;\n}\n');
        },
        () => submit('Added Mod.Of.'),
      ],
      'Add Neg': [
        () => create(NEG, 'namespace Calculator;\n\npublic static class Neg\n{\n    public static int Of(int a) => -a;\n}\n'),
        () => submit('Added Neg.Of.'),
      ],
      'Cover both': [
        () => toolUse('read_file', { path: MOD }),
        () => toolUse('read_file', { path: NEG }),
        (request) => {
          coverSaw = toolResults(request);
          return edit(
            TESTS,
            '    [Fact]\n    public void Divide_ByZero_Throws()',
            '    [Fact]\n    public void Mod_And_Neg() => Assert.Equal(-1, Neg.Of(Mod.Of(7, 3)));\n\n    [Fact]\n    public void Divide_ByZero_Throws()',
          );
        },
        () => submit('Covered Mod.Of and Neg.Of.'),
      ],
    };
    const route = phaseRouter(scripts, ['Add Mod', 'Add Neg'], arrivals);
    fake.enqueue(
      toolUse(
        'submit_plan',
        plan([
          phase('cover', 'Cover both', ['mod', 'neg'], TESTS),
          phase('mod', 'Add Mod', [], MOD, 'CREATE'),
          phase('neg', 'Add Neg', [], NEG, 'CREATE'),
        ]),
      ),
      ...Array.from({ length: 8 }, () => route),
    );
    const result = await runCli(['run', 'Add Mod and Neg and cover them', '--workspace', repo, '--yes', '--json', '--parallel', '2'], env);
    assert.equal(result.code, 0, result.stderr);
    const final = result.states.at(-1) as unknown as {
      currentNode: string;
      iterationCount: number;
      stateId: string;
      phases: Array<{ phaseId: string; status: string; iterationsRun: number; worktree?: string }>;
    };
    assert.equal(final.currentNode, 'SUCCESS');
    assert.equal(final.iterationCount, 1);
    assert.deepEqual(
      final.phases.map((p) => [p.phaseId, p.status, p.iterationsRun, p.worktree]),
      [
        ['cover', 'complete', 1, undefined],
        ['mod', 'complete', 1, undefined],
        ['neg', 'complete', 1, undefined],
      ],
    );
    // A and B both asked their model before either was answered; C only after both were merged.
    assert.deepEqual(arrivals.slice(0, 2).sort(), ['Add Mod', 'Add Neg']);
    assert.equal(arrivals[2], 'Cover both');
    assert.equal(fake.pending, 0);
    // C's worktree held both earlier phases' files.
    assert.match(coverSaw, /public static int Of\(int a, int b\) => a % b;/);
    assert.match(coverSaw, /public static int Of\(int a\) => -a;/);
    // The working tree has all three changes (the run's own diff gate and final validation wrote them).
    assert.match(fs.readFileSync(path.join(repo, MOD), 'utf8'), /a % b/);
    assert.match(fs.readFileSync(path.join(repo, NEG), 'utf8'), /=> -a;/);
    assert.match(fs.readFileSync(path.join(repo, TESTS), 'utf8'), /Mod_And_Neg/);
    // Each phase ran as a run of its own in its worktree, its coder recorded under the phase.
    for (const id of ['mod', 'neg', 'cover']) {
      const child = JSON.parse(readRunFile(repo, `${final.stateId}-phase-${id}`, 'state.json')) as {
        codingState: { currentNode: string; iterationCount: number; phases: Array<{ phaseId: string }> };
      };
      assert.equal(child.codingState.currentNode, 'SUCCESS');
      assert.equal(child.codingState.iterationCount, 1);
      assert.deepEqual(
        child.codingState.phases.map((p) => p.phaseId),
        [id],
      );
    }
    assert.match(result.stderr, /phase Add Mod \(mod\): started in .*ironbees\/[^ ]+-phase-mod/);
    const trees = path.join(fs.realpathSync(repo), '.ironbees', 'worktrees', final.stateId);
    assert.deepEqual(liveWhileRunning, [
      ['cover', 'pending', undefined],
      ['mod', 'running', `${trees}-phase-mod`],
      ['neg', 'running', `${trees}-phase-neg`],
    ]);
    assert.deepEqual(leftovers(), { worktrees: [`worktree ${fs.realpathSync(repo)}`], branches: '', dirs: [] });
  });

  it('a run killed while its phases work is cleaned up by the next command; resume runs the phases again', async () => {
    const modFile = 'namespace Calculator;\n\npublic static class Mod\n{\n    public static int Of(int a, int b) => a % b;\n}\n';
    const negFile = 'namespace Calculator;\n\npublic static class Neg\n{\n    public static int Of(int a) => -a;\n}\n';
    let first: CliRun | null = null;
    let killing = true;
    const scripts: Record<string, Array<(request: FakeRequest) => FakeTurn>> = {
      'Add Mod': [() => create(MOD, modFile), () => submit('Added Mod.Of.')],
      'Add Neg': [() => create(NEG, negFile), () => submit('Added Neg.Of.')],
    };
    const route = phaseRouter(scripts, [], []);
    const model: FakeScriptItem = async (request) => {
      if (!/# Phase \d+ of \d+/.test(firstMessage(request))) {
        return toolUse('submit_plan', plan([phase('mod', 'Add Mod', [], MOD, 'CREATE'), phase('neg', 'Add Neg', [], NEG, 'CREATE')]));
      }
      if (!killing) return route(request);
      // A phase's coder is at work in its worktree: the whole CLI is killed outright.
      if (first?.child.pid) process.kill(-first.child.pid, 'SIGKILL');
      return new Promise<never>(() => undefined);
    };
    fake.enqueue(...Array.from({ length: 12 }, () => model));
    first = startCli(['run', 'Add Mod and Neg', '--workspace', repo, '--yes', '--json', '--parallel', '2'], env);
    const killed = await first.done;
    assert.notEqual(killed.code, 0);
    const runId = (killed.states.at(-1) as { stateId: string }).stateId;
    assert.ok(leftovers().worktrees.length > 1, 'the kill left no worktree to clean');

    const listed = await runCli(['runs', '--workspace', repo], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stderr, new RegExp(`Cleaned up after run ${runId}-phase-(mod|neg), which stopped without ending`));
    assert.deepEqual(leftovers(), { worktrees: [`worktree ${fs.realpathSync(repo)}`], branches: '', dirs: [] });

    killing = false;
    const resumed = await runCli(['resume', runId, '--workspace', repo, '--yes', '--json'], env);
    assert.equal(resumed.code, 0, resumed.stderr);
    const final = resumed.states.at(-1) as unknown as {
      currentNode: string;
      phases: Array<{ phaseId: string; status: string; iterationsRun: number }>;
    };
    assert.equal(final.currentNode, 'SUCCESS');
    assert.deepEqual(
      final.phases.map((p) => [p.phaseId, p.status, p.iterationsRun]),
      [
        ['mod', 'complete', 1],
        ['neg', 'complete', 1],
      ],
    );
    assert.equal(fs.readFileSync(path.join(repo, MOD), 'utf8'), modFile);
    assert.equal(fs.readFileSync(path.join(repo, NEG), 'utf8'), negFile);
    assert.deepEqual(leftovers(), { worktrees: [`worktree ${fs.realpathSync(repo)}`], branches: '', dirs: [] });
  });

  it('a run killed after phase A was merged resumes from its integration branch: A is not run again, B and C run', async () => {
    const modFile = 'namespace Calculator;\n\npublic static class Mod\n{\n    public static int Of(int a, int b) => a % b;\n}\n';
    const negFile = 'namespace Calculator;\n\npublic static class Neg\n{\n    public static int Of(int a) => -a;\n}\n';
    const anchor = '    [Fact]\n    public void Divide_ByZero_Throws()';
    const covered = `    [Fact]\n    public void Mod_And_Neg() => Assert.Equal(-1, Neg.Of(Mod.Of(7, 3)));\n\n${anchor}`;
    const testsBefore = fs.readFileSync(path.join(repo, TESTS), 'utf8');
    const scripts: Record<string, Array<(request: FakeRequest) => FakeTurn>> = {
      'Add Mod': [() => create(MOD, modFile), () => submit('Added Mod.Of.')],
      'Add Neg': [() => create(NEG, negFile), () => submit('Added Neg.Of.')],
      'Cover both': [() => edit(TESTS, anchor, covered), () => submit('Covered Mod.Of and Neg.Of.')],
    };
    let negAsked = (): void => undefined;
    const negArrived = new Promise<void>((resolve) => (negAsked = resolve));
    // Requests per phase, by the phase named in the first message, before and after the resume.
    const before: Record<string, number> = {};
    const after: Record<string, number> = {};
    let resumed = false;
    let coverBrief = '';
    const model: FakeScriptItem = async (request) => {
      const text = firstMessage(request);
      const name = /# Phase \d+ of \d+: (.+)/.exec(text)?.[1]?.trim() ?? 'planner';
      const counts = resumed ? after : before;
      counts[name] = (counts[name] ?? 0) + 1;
      if (name === 'planner') {
        return toolUse(
          'submit_plan',
          plan([
            phase('mod', 'Add Mod', [], MOD, 'CREATE'),
            phase('neg', 'Add Neg', [], NEG, 'CREATE'),
            phase('cover', 'Cover both', ['mod', 'neg'], TESTS),
          ]),
        );
      }
      // Before the kill B's coder is held (A starts once it is): A completes and is merged alone.
      if (!resumed && name === 'Add Neg') {
        negAsked();
        return new Promise<never>(() => undefined);
      }
      if (!resumed && name === 'Add Mod') await negArrived;
      if (name === 'Cover both' && !coverBrief) coverBrief = text;
      const script = scripts[name];
      if (!script?.length) throw new Error(`no script left for ${name}`);
      return (script.shift() as (request: FakeRequest) => FakeTurn)(request);
    };
    fake.enqueue(...Array.from({ length: 12 }, () => model));
    const first = startCli(['run', 'Add Mod and Neg and cover them', '--workspace', repo, '--yes', '--json', '--parallel', '2'], env);
    // Once the parent shows A complete (merged, saved), the whole CLI is killed outright.
    let out = '';
    first.child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const merged = out
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .some((line) => {
          const state = JSON.parse(line) as { phases?: Array<{ phaseId: string; status: string }> };
          return state.phases?.some((p) => p.phaseId === 'mod' && p.status === 'complete') === true;
        });
      if (merged && first.child.pid) process.kill(-first.child.pid, 'SIGKILL');
    });
    const killed = await first.done;
    assert.notEqual(killed.code, 0);
    const runId = (killed.states.at(-1) as { stateId: string }).stateId;
    assert.deepEqual(before, { planner: 1, 'Add Mod': 2, 'Add Neg': 1 });

    // The next command cleans what the kill left, but keeps the integration branch: the run can be resumed.
    const listed = await runCli(['runs', '--workspace', repo], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stderr, new RegExp(`Cleaned up after run ${runId}-phase-neg, which stopped without ending`));
    assert.ok(
      listed.stderr.includes(
        `Branch ironbees/${runId} keeps the phases merged before the run stopped; \`ironbees resume ${runId}\` goes on from them.`,
      ),
      listed.stderr,
    );
    assert.deepEqual(leftovers(), { worktrees: [`worktree ${fs.realpathSync(repo)}`], branches: `ironbees/${runId}`, dirs: [] });
    assert.equal(git(repo, 'log', '--format=%s', '--merges', `ironbees/${runId}`), 'Merge phase mod: Add Mod');

    resumed = true;
    const result = await runCli(['resume', runId, '--workspace', repo, '--yes', '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    // A's coder is asked nothing again; B and C each run their two turns.
    assert.deepEqual(after, { 'Add Neg': 2, 'Cover both': 2 });
    assert.ok(
      result.stderr.includes(`phase Add Mod (mod): merged on ironbees/${runId} before the run stopped; it is not run again`),
      result.stderr,
    );
    // C got A's hand-off as the killed attempt showed it, and B's from this one.
    assert.ok(coverBrief.includes('## Add Mod (mod)\n\nAdded Mod.Of.\nFiles changed: src/Calculator/Mod.cs'), coverBrief);
    assert.ok(coverBrief.includes('## Add Neg (neg)\n\nAdded Neg.Of.\nFiles changed: src/Calculator/Neg.cs'), coverBrief);
    const final = result.states.at(-1) as unknown as {
      currentNode: string;
      phases: Array<{ phaseId: string; status: string; iterationsRun: number; handoff?: string }>;
    };
    assert.equal(final.currentNode, 'SUCCESS');
    assert.deepEqual(
      final.phases.map((p) => [p.phaseId, p.status, p.iterationsRun]),
      [
        ['mod', 'complete', 1],
        ['neg', 'complete', 1],
        ['cover', 'complete', 1],
      ],
    );
    const saved = JSON.parse(readRunFile(repo, runId, 'state.json')) as { codingState: { phases: typeof final.phases } };
    assert.deepEqual(saved.codingState.phases, final.phases);
    assert.equal(fs.readFileSync(path.join(repo, MOD), 'utf8'), modFile);
    assert.equal(fs.readFileSync(path.join(repo, NEG), 'utf8'), negFile);
    assert.equal(fs.readFileSync(path.join(repo, TESTS), 'utf8'), testsBefore.replace(anchor, covered));
    assert.deepEqual(leftovers(), { worktrees: [`worktree ${fs.realpathSync(repo)}`], branches: '', dirs: [] });
  });

  /**
   * A and B edit the same line of Calculator.cs; whichever is merged second conflicts and its coder
   * gets a second attempt (its first message holds the conflict), which `second` answers.
   */
  function sameLine(second: (name: string, request: FakeRequest) => FakeTurn, seen: Array<{ name: string; text: string }>) {
    const line = 'public static int Add(int a, int b) => a + b;';
    const lines: Record<string, string> = {
      'Check Add': 'public static int Add(int a, int b) => checked(a + b);',
      'Swap Add': 'public static int Add(int a, int b) => b + a;',
    };
    const first = (name: string): Array<(request: FakeRequest) => FakeTurn> => [
      () => edit(CALC, line, lines[name]),
      () => submit(`Did ${name}.`),
    ];
    const scripts: Record<string, Array<(request: FakeRequest) => FakeTurn>> = {
      'Check Add': first('Check Add'),
      'Swap Add': first('Swap Add'),
    };
    const route = phaseRouter(scripts, [], []);
    const model: FakeScriptItem = async (request) => {
      const text = firstMessage(request);
      const name = /# Phase \d+ of \d+: (.+)/.exec(text)?.[1]?.trim() ?? '?';
      if (!text.includes('# Merge conflict to resolve')) return route(request);
      if (!seen.some((s) => s.name === name)) seen.push({ name, text });
      return second(name, request);
    };
    fake.enqueue(
      toolUse('submit_plan', plan([phase('check', 'Check Add', [], CALC), phase('swap', 'Swap Add', [], CALC)])),
      ...Array.from({ length: 12 }, () => model),
    );
    return lines;
  }

  /** The brief the later phase's coder gets, exactly; `before` is the file both started from. */
  function expectedBrief(later: string, lines: Record<string, string>, before: string): string {
    const earlier = later === 'Check Add' ? 'Swap Add' : 'Check Add';
    const id = later === 'Check Add' ? 'check' : 'swap';
    const line = 'public static int Add(int a, int b) => a + b;';
    return [
      '# Merge conflict to resolve',
      `Phase "${id}" (${later}) was done once, but its change conflicts with the phases merged before it in ${CALC}. ` +
        'This workspace holds the phases merged so far with your phase merged in; in each of those files both sides are left between ' +
        "git's conflict markers (<<<<<<<, =======, >>>>>>>). Edit each so that it holds both changes, with no conflict marker left; " +
        'the rest of your phase is already here.',
      `Your first attempt's summary: Did ${later}.\nFiles changed: ${CALC}`,
      `--- ${CALC}, as merged so far (ours):\n${before.replace(line, lines[earlier])}`,
      `--- ${CALC}, as your first attempt left it (theirs):\n${before.replace(line, lines[later])}`,
    ].join('\n\n');
  }

  /** The conflicting lines in the second attempt's worktree, found on disk (its branch name is in them). */
  function markedRegion(): string {
    const dir = path.join(repo, '.ironbees', 'worktrees');
    const tree = fs.readdirSync(dir).find((name) => name.endsWith('-merge') && !name.endsWith('.json')) as string;
    const text = fs.readFileSync(path.join(dir, tree, CALC), 'utf8');
    return (/ *<<<<<<< [\s\S]*?>>>>>>> [^\n]*\n/.exec(text) as RegExpExecArray)[0];
  }

  it("A and B editing the same line: the later phase's coder gets both sides, its merged edit passes, the run succeeds", async () => {
    const seen: Array<{ name: string; text: string }> = [];
    const merged = '    public static int Add(int a, int b) => checked(b + a);\n';
    let region = '';
    const lines = sameLine((name, request) => {
      if (request.body.messages.length === 1) {
        region = markedRegion();
        return edit(CALC, region, merged);
      }
      return submit('Merged both: checked(b + a).');
    }, seen);
    const before = fs.readFileSync(path.join(repo, CALC), 'utf8');
    const result = await runCli(['run', 'Change Add twice', '--workspace', repo, '--yes', '--json', '--parallel', '2'], env);
    assert.equal(result.code, 0, result.stderr);
    const final = result.states.at(-1) as unknown as {
      currentNode: string;
      stateId: string;
      phases: Array<{ phaseId: string; status: string; iterationsRun: number }>;
    };
    assert.equal(final.currentNode, 'SUCCESS');
    assert.equal(seen.length, 1);
    const later = seen[0].name;
    const earlier = later === 'Check Add' ? 'Swap Add' : 'Check Add';
    const laterId = later === 'Check Add' ? 'check' : 'swap';
    assert.ok(seen[0].text.includes(expectedBrief(later, lines, before)), seen[0].text);
    // The other phase's summary reaches it too.
    assert.ok(seen[0].text.includes(`## ${earlier} (${earlier === 'Check Add' ? 'check' : 'swap'})\n\nDid ${earlier}.`), seen[0].text);
    assert.equal(
      region,
      `<<<<<<< HEAD\n    ${lines[earlier]}\n=======\n    ${lines[later]}\n>>>>>>> ironbees/${final.stateId}-phase-${laterId}\n`,
    );
    assert.equal(
      fs.readFileSync(path.join(repo, CALC), 'utf8'),
      before.replace('    public static int Add(int a, int b) => a + b;\n', merged),
    );
    assert.deepEqual(
      final.phases.map((p) => [p.phaseId, p.status, p.iterationsRun]),
      [
        ['check', 'complete', laterId === 'check' ? 2 : 1],
        ['swap', 'complete', laterId === 'swap' ? 2 : 1],
      ],
    );
    assert.deepEqual(leftovers(), { worktrees: [`worktree ${fs.realpathSync(repo)}`], branches: '', dirs: [] });
  });

  it("a conflict the later phase's coder does not resolve stops the run at a person with both sides; the working tree is untouched", async () => {
    const seen: Array<{ name: string; text: string }> = [];
    // Its second attempt changes nothing: the conflict markers stay, its build fails until it gives up.
    const lines = sameLine(() => submit('Left it.'), seen);
    const before = fs.readFileSync(path.join(repo, CALC), 'utf8');
    const result = await runCli(['run', 'Change Add twice', '--workspace', repo, '--yes', '--json', '--parallel', '2'], env);
    assert.equal(result.code, 3, result.stderr);
    const final = result.states.at(-1) as unknown as { currentNode: string; stateId: string };
    assert.equal(final.currentNode, 'WAIT_HUMAN');
    assert.equal(seen.length, 1);
    const later = seen[0].name;
    const earlier = later === 'Check Add' ? 'Swap Add' : 'Check Add';
    const laterId = later === 'Check Add' ? 'check' : 'swap';
    const handoff = readRunFile(repo, final.stateId, 'HANDOFF.md');
    assert.ok(
      handoff.includes(
        `Merging phase "${laterId}" (${later}) conflicts with the phases merged before it in ${CALC}; nothing was resolved and the merge was undone.`,
      ),
      handoff,
    );
    const line = 'public static int Add(int a, int b) => a + b;';
    assert.ok(handoff.includes(before.replace(line, lines[earlier]).split('\n').slice(0, 3).join('\n')), handoff);
    assert.match(handoff, /=> checked\(a \+ b\);/);
    assert.match(handoff, /=> b \+ a;/);
    assert.ok(
      handoff.includes(
        `The phase's coder was given the conflict with both sides; its second attempt ended FAILED. Its run is kept as ${final.stateId}-phase-${laterId}-merge`,
      ),
      handoff,
    );
    // The escalated run shows the phases as they ran: the earlier one merged and complete, the later one in error with why.
    const earlierId = laterId === 'check' ? 'swap' : 'check';
    const phases = (
      result.states.at(-1) as unknown as {
        phases: Array<{ phaseId: string; status: string; iterationsRun: number; handoff?: string; error?: string }>;
      }
    ).phases;
    assert.deepEqual(
      phases.map((p) => [p.phaseId, p.status]),
      [
        ['check', laterId === 'check' ? 'error' : 'complete'],
        ['swap', laterId === 'swap' ? 'error' : 'complete'],
      ],
    );
    const done = phases.find((p) => p.phaseId === earlierId);
    assert.deepEqual([done?.iterationsRun, done?.handoff, done?.error], [1, `Did ${earlier}.\nFiles changed: ${CALC}`, undefined]);
    const merge = `${final.stateId}-phase-${laterId}-merge`;
    const stopped = phases.find((p) => p.phaseId === laterId)?.error ?? '';
    assert.ok(
      stopped.startsWith(`Merging phase "${laterId}" (${later}) conflicts with the phases merged before it in ${CALC}`) &&
        stopped.endsWith(
          `The phase's coder was given the conflict with both sides; its second attempt ended FAILED. Its run is kept as ${merge} (ironbees trace ${merge}).`,
        ),
      stopped,
    );
    const saved = JSON.parse(readRunFile(repo, final.stateId, 'state.json')) as { codingState: { phases: unknown } };
    assert.deepEqual(saved.codingState.phases, phases);
    assert.ok(handoff.includes(`### ${later} (\`${laterId}\`): error`), handoff);
    assert.ok(handoff.includes(`### ${earlier} (\`${earlierId}\`): complete\n\n- Iterations: 1 of 5`), handoff);
    assert.equal(fs.readFileSync(path.join(repo, CALC), 'utf8'), before);
    assert.deepEqual(leftovers(), { worktrees: [`worktree ${fs.realpathSync(repo)}`], branches: '', dirs: [] });
  });
});
