// "ironbees.parallel" = 2 in the real extension host, real git and dotnet, against the scripted fake
// Messages API: a plan of two independent phases runs them at once, each in a worktree of its own
// (the fake holds each phase's first coder request until both have arrived: an event, so phases run
// one at a time would never get there), both changes reach the working tree, the run ends SUCCESS,
// and no worktree or phase branch is left.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../../support/fake-anthropic';
import type { FakeAnthropic, FakeRequest, FakeTurn } from '../../support/fake-anthropic';
import {
  SOURCE,
  TARGET,
  ironbees,
  readWorkspaceFile,
  setSetting,
  setUserSetting,
  stopUsingFakeModel,
  useFakeModel,
  workspaceRoot,
} from './helpers';

const MOD = 'src/Calculator/Mod.cs';
const NEG = 'src/Calculator/Neg.cs';
const MOD_TEXT = 'namespace Calculator;\n\npublic static class Mod\n{\n    public static int Of(int a, int b) => a % b;\n}\n';
const NEG_TEXT = 'namespace Calculator;\n\npublic static class Neg\n{\n    public static int Of(int a) => -a;\n}\n';

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: workspaceRoot(), encoding: 'utf8' }).replace(/\n$/, '');
}

const phase = (id: string, name: string, filePath: string) => ({
  id,
  name,
  description: name,
  dependencies: [],
  steps: [{ number: 1, description: name, actionType: 'CREATE', filePath, rationale: '' }],
  affectedFiles: [filePath],
});

function firstMessage(request: FakeRequest): string {
  const content = request.body.messages[0]?.content;
  if (typeof content === 'string') return content;
  return (content ?? []).map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n');
}

describe('ironbees.parallel 2: phases in worktrees of their own (real extension host, git and dotnet)', function () {
  this.timeout(600_000);
  let fake: FakeAnthropic;
  let original = '';
  let madeRepo = false;

  before(async () => {
    const root = workspaceRoot();
    original = readWorkspaceFile(SOURCE) ?? '';
    // A green start: each phase's own validation needs every test to pass.
    fs.writeFileSync(path.join(root, SOURCE), original.replace('return a * b;', 'return a / b;'));
    if (!fs.existsSync(path.join(root, '.git'))) {
      madeRepo = true;
      git('init', '--quiet', '--initial-branch=main');
      git('config', 'user.email', 'person@example.com');
      git('config', 'user.name', 'Person');
      fs.writeFileSync(path.join(root, '.gitignore'), 'bin/\nobj/\n.ironbees/\n.vscode/\n');
    }
    git('add', '-A');
    git('commit', '--quiet', '-m', 'the calculator, green');
    fake = await startFakeAnthropic();
    await useFakeModel(fake.url);
    await setUserSetting('approval.plan', 'never');
    await setUserSetting('approval.diffs', 'never');
    await setUserSetting('review', 'off');
    await setSetting('parallel', 2);
  });

  after(async () => {
    await setSetting('parallel', undefined);
    for (const key of ['review', 'approval.diffs', 'approval.plan']) await setUserSetting(key, undefined);
    await stopUsingFakeModel();
    await fake.close();
    const root = workspaceRoot();
    for (const made of [MOD, NEG]) fs.rmSync(path.join(root, made), { force: true });
    fs.writeFileSync(path.join(root, SOURCE), original);
    if (madeRepo) for (const made of ['.git', '.gitignore']) fs.rmSync(path.join(root, made), { recursive: true, force: true });
  });

  it('runs two independent phases at once, each in its worktree; SUCCESS with both files and nothing left', async () => {
    const arrived: string[] = [];
    let bothArrived = (): void => undefined;
    const both = new Promise<void>((resolve) => (bothArrived = resolve));
    const scripts: Record<string, FakeTurn[]> = {
      'Add Mod': [
        toolUse('str_replace_based_edit_tool', { command: 'create', path: MOD, file_text: MOD_TEXT }),
        toolUse('submit_changes', { summary: 'Added Mod.' }),
      ],
      'Add Neg': [
        toolUse('str_replace_based_edit_tool', { command: 'create', path: NEG, file_text: NEG_TEXT }),
        toolUse('submit_changes', { summary: 'Added Neg.' }),
      ],
    };
    const model = async (request: FakeRequest): Promise<FakeTurn> => {
      const name = /# Phase \d+ of \d+: (.+)/.exec(firstMessage(request))?.[1]?.trim();
      if (!name) {
        return toolUse('submit_plan', {
          spec: 'Mod.Of and Neg.Of.',
          plan: { summary: 'Add Mod and Neg.', phases: [phase('mod', 'Add Mod', MOD), phase('neg', 'Add Neg', NEG)], complexity: 'LOW' },
        });
      }
      if (!arrived.includes(name)) {
        arrived.push(name);
        if (arrived.length === 2) bothArrived();
        await both;
      }
      return scripts[name].shift() as FakeTurn;
    };
    fake.enqueue(...Array.from({ length: 8 }, () => model));
    const { controller } = await ironbees();
    await controller.start('Add Mod and Neg', TARGET);
    const end = await controller.waitFor(['WAIT_HUMAN', 'SUCCESS', 'FAILED', 'CANCELLED'], 540_000);
    assert.equal(end.currentNode, 'SUCCESS', JSON.stringify(end.metadata.error ?? end.testResult));
    assert.deepEqual([...arrived].sort(), ['Add Mod', 'Add Neg']);
    assert.deepEqual(
      end.phases?.map((p) => [p.phaseId, p.status, p.iterationsRun]),
      [
        ['mod', 'complete', 1],
        ['neg', 'complete', 1],
      ],
    );
    assert.equal(readWorkspaceFile(MOD), MOD_TEXT);
    assert.equal(readWorkspaceFile(NEG), NEG_TEXT);
    assert.equal(
      git('worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree ')).length,
      1,
    );
    assert.equal(git('branch', '--list', 'ironbees/*'), '');
  });
});
