// Provider settings inside a real extension host (issue 13): "ironbees.provider": "openai" with the
// base URL pointed at a local fake OpenAI-compatible server; the key set through "Ironbees: Set API
// Key", whose real quick pick asks which provider (only the person's typing of the key is played by
// the test); a run reaches the plan gate through the fake with that key and model. A missing key is
// a message that names the provider, and changing the key or a provider setting retires the runtime,
// so the next run uses the new one.

import { DEFAULT_MODEL } from '../../../src/core/llm/defaults';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CodingState } from '../../../src/core/model';
import { noKeyMessage } from '../../../src/extension/provider-settings';
import { chatToolCall, startFakeOpenAI } from '../../support/fake-openai';
import type { FakeOpenAI } from '../../support/fake-openai';
import { SOURCE, TARGET, eventually, ironbees, setSetting, setUserSetting, workspaceRoot } from './helpers';

const MODEL = 'gpt-fake-coder';
const AGENTS_MD = '# Team rules\nKeep public signatures unchanged.\n';
const PLAN = {
  spec: 'Calc.Divide returns a / b.',
  plan: {
    summary: 'Fix Divide.',
    steps: [
      {
        number: 1,
        description: 'Divide instead of multiplying',
        actionType: 'MODIFY',
        filePath: SOURCE,
        rationale: 'The test expects a quotient',
      },
    ],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

/**
 * Runs "Ironbees: Set API Key", picks "OpenAI-compatible" in its real quick pick, and answers the
 * key box with `key` ('' removes the stored key). Resolves once the extension saw the change.
 */
async function setOpenAIKeyThroughCommand(key: string): Promise<void> {
  const { controllerDeps } = await ironbees();
  const titles: string[] = [];
  const original = vscode.window.showInputBox;
  let answered = false;
  // Only the typing is played: the box the command opens is checked, the answer given for OpenAI only.
  vscode.window.showInputBox = (async (options?: vscode.InputBoxOptions) => {
    titles.push(options?.title ?? '');
    if (options?.title !== 'Ironbees: OpenAI-compatible API key' || options.password !== true) return undefined;
    answered = true;
    return key;
  }) as typeof vscode.window.showInputBox;
  const changed = new Promise<void>((resolve) => {
    const listener = controllerDeps.apiKeys.onDidChange(() => {
      listener.dispose();
      resolve();
    });
  });
  try {
    for (let attempt = 0; attempt < 20 && !answered; attempt += 1) {
      const done = Promise.resolve(vscode.commands.executeCommand('ironbees.setApiKey'));
      // The picker lists Anthropic first: move to the second item and accept, once it is open.
      for (let tick = 0; tick < 40; tick += 1) {
        const settled = await Promise.race([done.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 150))]);
        if (settled) break;
        await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      }
      await done;
    }
  } finally {
    vscode.window.showInputBox = original;
  }
  assert.ok(answered, `the OpenAI-compatible key box was asked for (boxes seen: ${JSON.stringify(titles)})`);
  await Promise.race([
    changed,
    new Promise((_, reject) => setTimeout(() => reject(new Error('the key change never reached the extension')), 10_000)),
  ]);
}

/** Sets the user's base URL and waits until the extension reads it (its change event has run by then). */
async function useBaseUrl(url: string | undefined): Promise<void> {
  await setUserSetting('openaiBaseUrl', url);
  const { controllerDeps } = await ironbees();
  await eventually(`the base URL ${url ?? '(none)'} to be read`, () => controllerDeps.settings().openaiBaseUrl === (url ?? ''));
}

async function planGate(request = 'Fix the failing Divide test'): Promise<CodingState> {
  const { controller } = await ironbees();
  await controller.start(request, TARGET);
  const waiting = await controller.waitFor(['WAIT_PLAN_APPROVAL', 'CODE', 'WAIT_DIFF_APPROVAL', 'FAILED'], 240_000);
  assert.equal(waiting.currentNode, 'WAIT_PLAN_APPROVAL', JSON.stringify(waiting.metadata.error ?? null));
  await controller.cancel();
  await controller.waitFor(['CANCELLED']);
  return waiting;
}

describe('provider settings: OpenAI-compatible through the editor (real extension host)', function () {
  this.timeout(300_000);
  let fake: FakeOpenAI;
  let other: FakeOpenAI;
  const agentsMd = (): string => path.join(workspaceRoot(), 'AGENTS.md');

  before(async () => {
    fake = await startFakeOpenAI();
    other = await startFakeOpenAI();
    await setUserSetting('provider', 'openai');
    await setSetting('model', MODEL);
    await setSetting('demoModel', false);
    await useBaseUrl(undefined);
    const { controllerDeps } = await ironbees();
    await eventually('the provider and model settings to be read', () => {
      const now = controllerDeps.settings();
      return now.provider === 'openai' && now.model === MODEL && !now.demoModel;
    });
    fs.writeFileSync(agentsMd(), AGENTS_MD);
  });

  after(async () => {
    fs.rmSync(agentsMd(), { force: true });
    await setOpenAIKeyThroughCommand('').catch(() => undefined);
    await setUserSetting('provider', undefined);
    await setUserSetting('openaiBaseUrl', undefined);
    await setSetting('model', undefined);
    await setSetting('demoModel', undefined);
    (await ironbees()).controller.invalidateRuntime();
    await fake.close();
    await other.close();
  });

  it('with no key and no base URL, refuses to start with a message that names the provider', async () => {
    const { controller } = await ironbees();
    controller.invalidateRuntime();
    await assert.rejects(controller.start('Fix the failing Divide test', TARGET), (error: Error) => {
      assert.equal(error.message, noKeyMessage('openai'));
      assert.match(error.message, /^No OpenAI-compatible API key\./);
      return true;
    });
    assert.equal(controller.isLive, false);
  });

  it('"Set API Key" asks which provider; a run then reaches the plan gate through the fake with that key and model', async () => {
    await useBaseUrl(fake.url);
    await setOpenAIKeyThroughCommand('sk-openai-first-0f3a9c');
    fake.enqueue(chatToolCall('submit_plan', PLAN, { usage: { prompt_tokens: 1000, completion_tokens: 100 } }));
    const waiting = await planGate();
    assert.equal(fake.requests.length, 1, 'one model call: the planner submitted its plan');
    assert.equal(fake.requests[0].body.model, MODEL);
    assert.equal(fake.requests[0].headers.authorization, 'Bearer sk-openai-first-0f3a9c');
    assert.equal(other.requests.length, 0);
    assert.equal(waiting.metadata.provider, 'openai');
    assert.equal(waiting.metadata.model, MODEL);
    assert.deepEqual(waiting.metadata.instructionsRead, [{ path: 'AGENTS.md', chars: AGENTS_MD.trim().length, truncated: false }]);
    assert.equal(waiting.usage.inputTokens, 1000);
  });

  it('a new OpenAI key retires the runtime: the next run sends the new key', async () => {
    await setOpenAIKeyThroughCommand('sk-openai-second-7b21e4');
    fake.enqueue(chatToolCall('submit_plan', PLAN));
    const before = fake.requests.length;
    await planGate();
    assert.equal(fake.requests.length, before + 1);
    assert.equal(fake.requests.at(-1)?.headers.authorization, 'Bearer sk-openai-second-7b21e4');
  });

  it('a new base URL retires the runtime: the next run goes to the new endpoint', async () => {
    const before = fake.requests.length;
    await useBaseUrl(other.url);
    other.enqueue(chatToolCall('submit_plan', PLAN));
    await planGate();
    assert.equal(other.requests.length, 1);
    assert.equal(other.requests[0].headers.authorization, 'Bearer sk-openai-second-7b21e4');
    assert.equal(fake.requests.length, before, 'nothing more went to the old endpoint');
  });

  it('the model picker (Choose Model…) writes the provider and model the next run uses to the user settings', async () => {
    const { controllerDeps } = await ironbees();
    const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('ironbees');
    const demoBefore = config().inspect('demoModel')?.globalValue;
    const originalPick = vscode.window.showQuickPick;
    const originalBox = vscode.window.showInputBox;
    const offered: string[] = [];
    let suggested: string | undefined;
    vscode.window.showQuickPick = (async (items: readonly vscode.QuickPickItem[]) => {
      offered.push(...items.map((item) => item.label));
      return items.find((item) => item.label === 'Anthropic');
    }) as unknown as typeof vscode.window.showQuickPick;
    vscode.window.showInputBox = (async (options?: vscode.InputBoxOptions) => {
      suggested = options?.value;
      return 'claude-picked-1';
    }) as typeof vscode.window.showInputBox;
    try {
      await vscode.commands.executeCommand('ironbees.chooseModel');
      assert.deepEqual(offered, ['Anthropic', '$(check) OpenAI-compatible', 'Scripted demo model']);
      assert.equal(suggested, DEFAULT_MODEL, "the provider's default model is offered first");
      await eventually('the picked provider and model to be read', () => {
        const now = controllerDeps.settings();
        return now.provider === 'anthropic' && now.model === 'claude-picked-1' && !now.demoModel;
      });
      assert.equal(config().inspect('provider')?.globalValue, 'anthropic');
      assert.equal(config().inspect('model')?.globalValue, 'claude-picked-1');
    } finally {
      vscode.window.showQuickPick = originalPick;
      vscode.window.showInputBox = originalBox;
      await setUserSetting('demoModel', demoBefore);
    }
  });
});
