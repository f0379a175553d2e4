import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type { CodingState } from '../../../src/core/model';
import type { RunSummary } from '../../../src/core/trace';
import type { IronbeesActions } from '../../../src/extension/actions';
import { PanelBridge, staleRunProblem } from '../../../src/extension/panel-bridge';
import type { ReviewController } from '../../../src/extension/review/review-controller';
import type { RunController } from '../../../src/extension/run-controller';
import type { ApiKeyStore } from '../../../src/extension/secrets';
import type { IronbeesSettings } from '../../../src/extension/settings';
import type { AgentViewProvider } from '../../../src/extension/webview/agent-view-provider';
import { ReadyGate } from '../../../src/extension/webview/ready-gate';
import type { ExtensionMessage, WebviewMessage } from '../../../src/shared/protocol';
import { forgetSecret, registerSecret } from '../../../src/core/redact';
import { makeRun } from '../webview/fixtures';
import type { ActivityEvent } from '../../../src/core/activity';

type Listener<T> = (value: T) => void;

/** A vscode-style event whose listeners the test fires by hand. */
class FakeEvent<T> {
  readonly listeners: Array<Listener<T>> = [];
  readonly event = (listener: Listener<T>): { dispose(): void } => {
    this.listeners.push(listener);
    return { dispose: () => undefined };
  };
  fire(value: T): void {
    for (const listener of this.listeners) listener(value);
  }
}

class FakeController {
  state: CodingState | null = null;
  busy = false;
  statusText = 'Ironbees';
  historyReads: Array<() => Promise<RunSummary[]>> = [];
  readonly stateChanged = new FakeEvent<CodingState | null>();
  readonly historyChanged = new FakeEvent<void>();
  readonly reported = new FakeEvent<{ kind: 'error' | 'notice'; message: string }>();
  readonly onDidChangeState = this.stateChanged.event;
  readonly onDidChangeHistory = this.historyChanged.event;
  readonly onDidReport = this.reported.event;
  readonly activity = new FakeEvent<ActivityEvent>();
  readonly onDidActivity = this.activity.event;
  async restoreLatest(): Promise<void> {}
  history(): Promise<RunSummary[]> {
    const next = this.historyReads.shift();
    return next ? next() : Promise.resolve([]);
  }
  setState(state: CodingState): void {
    this.state = state;
    this.stateChanged.fire(state);
  }
}

function summary(runId: string): RunSummary {
  return { runId } as unknown as RunSummary;
}

function setup(settings: Partial<IronbeesSettings> = {}): {
  bridge: PanelBridge;
  controller: FakeController;
  calls: string[];
  posted: ExtensionMessage[];
  warnings: string[];
  gate: ReadyGate<ExtensionMessage>;
} {
  const controller = new FakeController();
  const calls: string[] = [];
  const record =
    (name: string) =>
    async (...args: unknown[]): Promise<void> => {
      calls.push(`${name} ${JSON.stringify(args)}`);
    };
  const actions = {
    runAgent: record('runAgent'),
    approvePlan: record('approvePlan'),
    rejectPlan: record('rejectPlan'),
    submitReview: record('submitReview'),
    rejectDiffs: record('rejectDiffs'),
    continueRun: record('continueRun'),
    stopRun: record('stopRun'),
    cancelRun: record('cancelRun'),
    resumeRun: record('resumeRun'),
    revertRun: record('revertRun'),
    openFile: record('openFile'),
    openHandoff: record('openHandoff'),
    chooseModel: record('chooseModel'),
  };
  const review = {
    review: null,
    onDidChangeReview: new FakeEvent<unknown>().event,
    setFile: record('setFile'),
    setHunk: record('setHunk'),
    openDiff: record('openDiff'),
  };
  const warnings: string[] = [];
  const logger = { debug: () => undefined, info: () => undefined, warn: (m: string) => void warnings.push(m), error: () => undefined };
  const bridge = new PanelBridge({
    controller: controller as unknown as RunController,
    review: review as unknown as ReviewController,
    actions: actions as unknown as IronbeesActions,
    apiKeys: { has: async () => true } as unknown as ApiKeyStore,
    settings: () =>
      ({ maxIterations: 5, provider: 'anthropic', model: '', demoModel: true, fallback: null, ...settings }) as IronbeesSettings,
    logger,
  });
  const posted: ExtensionMessage[] = [];
  // The real gate of the view provider, in front of a recording "webview".
  const gate = new ReadyGate<ExtensionMessage>((m) => posted.push(m));
  bridge.attach({ post: (m: ExtensionMessage) => gate.post(m) } as unknown as AgentViewProvider);
  return { bridge, controller, calls, posted, warnings, gate };
}

describe('PanelBridge: answers name the run they answer', () => {
  const answers: WebviewMessage[] = [
    { type: 'approvePlan', runId: 'run-old' },
    { type: 'rejectPlan', runId: 'run-old', feedback: 'no' },
    { type: 'setFileDecision', runId: 'run-old', filePath: 'a.cs', accepted: true },
    { type: 'setHunkDecision', runId: 'run-old', filePath: 'a.cs', hunk: 1, accepted: false, reason: 'no' },
    { type: 'submitReview', runId: 'run-old' },
    { type: 'rejectDiffs', runId: 'run-old', feedback: 'no' },
    { type: 'continueRun', runId: 'run-old', guidance: '', additionalIterations: 2 },
    { type: 'stopRun', runId: 'run-old' },
    { type: 'cancelRun', runId: 'run-old' },
  ];

  for (const message of answers) {
    it(`refuses ${message.type} from a stale panel, says so, and refreshes the panel`, async () => {
      const { bridge, controller, calls, posted, warnings, gate } = setup();
      await gate.open(async () => []);
      controller.state = makeRun({ stateId: 'run-new', currentNode: 'WAIT_HUMAN' });
      await bridge.handle(message);
      assert.deepEqual(calls, [], 'nothing was done');
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /answered run run-old .*current run is run-new/);
      assert.equal(posted[0]?.type, 'notice');
      const state = posted.find((m) => m.type === 'state');
      assert.equal(state?.type === 'state' ? state.run?.stateId : null, 'run-new');
    });
  }

  it('acts on an answer for the current run', async () => {
    const { bridge, controller, calls } = setup();
    controller.state = makeRun({ stateId: 'run-new', currentNode: 'WAIT_HUMAN' });
    await bridge.handle({ type: 'continueRun', runId: 'run-new', guidance: 'try harder', additionalIterations: 2 });
    await bridge.handle({ type: 'stopRun', runId: 'run-new' });
    assert.deepEqual(calls, ['continueRun ["try harder",2]', 'stopRun []']);
  });

  it('hands a hunk verdict of the current run to the review, with its reason', async () => {
    const { bridge, controller, calls } = setup();
    controller.state = makeRun({ stateId: 'run-new', currentNode: 'WAIT_DIFF_APPROVAL' });
    await bridge.handle({ type: 'setHunkDecision', runId: 'run-new', filePath: 'a.cs', hunk: 1, accepted: false, reason: 'keep it' });
    assert.deepEqual(calls, ['setHunk ["a.cs",1,false,"keep it"]']);
  });

  it('refuses answers when there is no current run at all', () => {
    assert.match(staleRunProblem({ type: 'approvePlan', runId: 'run-1' }, null) ?? '', /there is no current run/);
  });

  it('lets resume and revert name any run of the history, and a revert from the panel is confirmed first', async () => {
    const { bridge, controller, calls } = setup();
    controller.state = makeRun({ stateId: 'run-new' });
    await bridge.handle({ type: 'resumeRun', runId: 'run-old' });
    await bridge.handle({ type: 'revertRun', runId: 'run-old' });
    assert.deepEqual(calls, ['resumeRun ["run-old"]', 'revertRun ["run-old",{"confirm":true}]']);
  });

  it('opens the hand-off of the run the panel names (HANDOFF.md as a preview)', async () => {
    const { bridge, controller, calls } = setup();
    controller.state = makeRun({ stateId: 'run-new' });
    await bridge.handle({ type: 'openHandoff', runId: 'run-old' });
    assert.deepEqual(calls, ['openHandoff ["run-old"]']);
  });

  it("the model line's Change… opens the model picker", async () => {
    const { bridge, calls } = setup();
    await bridge.handle({ type: 'chooseModel' });
    assert.deepEqual(calls, ['chooseModel []']);
  });

  it('posts whether the run shown is interrupted (after a reload), for the Resume banner', async () => {
    const { controller, posted, gate } = setup();
    await gate.open(async () => []);
    Object.assign(controller, { interrupted: true });
    controller.setState(makeRun({ stateId: 'run-1', currentNode: 'CODE' }));
    await new Promise((resolve) => setImmediate(resolve));
    const last = posted.filter((m) => m.type === 'state').at(-1);
    assert.equal(last?.type === 'state' && last.interrupted, true);
  });
});

describe('PanelBridge + ReadyGate: the snapshot after `ready`', () => {
  it('does not let the snapshot overwrite a state that changed while it gathered the history', async () => {
    const { bridge, controller, posted, gate } = setup();
    controller.state = makeRun({ stateId: 'run-1', currentNode: 'WAIT_PLAN_APPROVAL' });
    let finishHistory: (runs: RunSummary[]) => void = () => undefined;
    controller.historyReads.push(() => new Promise((resolve) => (finishHistory = resolve)));
    const opened = gate.open(() => bridge.snapshot());
    await new Promise((resolve) => setImmediate(resolve));
    // The person approved in the palette meanwhile: the run moved on.
    controller.setState(makeRun({ stateId: 'run-1', currentNode: 'CODE' }));
    finishHistory([summary('run-1')]);
    assert.equal(await opened, true);
    const states = posted.flatMap((m) => (m.type === 'state' ? [m.run?.currentNode] : []));
    assert.deepEqual(states, ['WAIT_PLAN_APPROVAL', 'CODE']);
    assert.equal(states.at(-1), 'CODE', 'the panel ends on the newest state');
  });

  it('posts only the newest history when two reads finish out of order', async () => {
    const { bridge, controller, posted, gate } = setup();
    await gate.open(async () => []);
    let finishOlder: (runs: RunSummary[]) => void = () => undefined;
    controller.historyReads.push(
      () => new Promise((resolve) => (finishOlder = resolve)),
      async () => [summary('run-2'), summary('run-1')],
    );
    const older = bridge.handle({ type: 'refreshHistory' });
    await bridge.handle({ type: 'refreshHistory' });
    finishOlder([summary('run-1')]);
    await older;
    const histories = posted.flatMap((m) => (m.type === 'history' ? [m.runs.map((r) => r.runId)] : []));
    assert.deepEqual(histories, [['run-2', 'run-1']]);
  });
});

describe('PanelBridge: the provider and model the panel names (modelInfo)', () => {
  it('sends the shown run\u2019s own on `ready` and on every state change; the settings\u2019 choice when the run recorded none', async () => {
    const { controller, posted, gate, bridge } = setup();
    controller.state = makeRun({ stateId: 'run-1', metadata: { provider: 'openai', model: 'gpt-4.1' } });
    await gate.open(() => bridge.snapshot());
    controller.setState(makeRun({ stateId: 'run-2', metadata: {} }));
    await bridge.settingsChanged();
    const infos = posted.filter((m) => m.type === 'modelInfo');
    assert.deepEqual(infos, [
      { type: 'modelInfo', runId: 'run-1', text: 'OpenAI-compatible · gpt-4.1', fallback: null },
      { type: 'modelInfo', runId: null, text: 'the scripted demo model', fallback: null },
      { type: 'modelInfo', runId: null, text: 'the scripted demo model', fallback: null },
    ]);
  });
});

describe('PanelBridge: the settings the panel shows', () => {
  it("the key's tooltip names the provider configured (OpenAI-compatible), not Anthropic", async () => {
    const { posted, gate, bridge } = setup({ maxIterations: 5, model: 'gpt-4.1', demoModel: false, provider: 'openai' });
    await gate.open(() => bridge.snapshot());
    assert.deepEqual(
      posted.filter((m) => m.type === 'settings'),
      [
        {
          type: 'settings',
          maxIterations: 5,
          model: 'OpenAI-compatible \u00b7 gpt-4.1',
          hasApiKey: true,
          keyStatus: 'OpenAI-compatible API key set',
        },
      ],
    );
  });
});

describe('PanelBridge: the status line names the provider and model, never "agent default"', () => {
  for (const [settings, model] of [
    [{ demoModel: false, model: '' }, 'Anthropic \u00b7 each agent\u2019s model'],
    [{ demoModel: false, provider: 'openai', model: 'gpt-4.1' }, 'OpenAI-compatible \u00b7 gpt-4.1'],
    [{ demoModel: true }, 'the scripted demo model'],
  ] as const) {
    const keyStatus =
      'demoModel' in settings && settings.demoModel
        ? 'The scripted demo model answers: no API key needed'
        : 'provider' in settings
          ? 'OpenAI-compatible API key set'
          : 'Anthropic API key set';
    it(`says "${model}" for ${JSON.stringify(settings)}`, async () => {
      const { posted, gate, bridge } = setup(settings);
      await gate.open(() => bridge.snapshot());
      await bridge.settingsChanged();
      assert.deepEqual(
        posted.filter((m) => m.type === 'settings'),
        [
          { type: 'settings', maxIterations: 5, model, hasApiKey: true, keyStatus },
          { type: 'settings', maxIterations: 5, model, hasApiKey: true, keyStatus },
        ],
      );
    });
  }
});

describe('PanelBridge: no secret value reaches the panel', () => {
  it('masks a registered secret (not shaped like sk-ant-) in the state it posts', async () => {
    const secret = 'corp-gateway-key-44e1b9';
    registerSecret(secret);
    try {
      const { controller, posted, gate } = setup();
      await gate.open(async () => []);
      controller.setState(makeRun({ stateId: 'run-1', userRequest: `use ${secret} for the call`, currentNode: 'PLAN' }));
      const state = posted.find((m) => m.type === 'state');
      assert.equal(state?.type === 'state' ? state.run?.userRequest : null, 'use [redacted] for the call');
      assert.equal(JSON.stringify(posted).includes(secret), false);
    } finally {
      forgetSecret(secret);
    }
  });
});

describe('PanelBridge: the live activity', () => {
  it("posts the run's activity as it happens (masked like the rest), and the whole list to a panel that says `ready` later", async () => {
    const secret = 'corp-gateway-key-77a0c1';
    registerSecret(secret);
    try {
      const { bridge, controller, posted, gate } = setup();
      await gate.open(async () => []);
      controller.setState(makeRun({ stateId: 'run-1', currentNode: 'PLAN' }));
      controller.activity.fire({
        kind: 'tool',
        runId: 'run-1',
        agent: 'planner',
        turn: 1,
        tool: 'search_text',
        line: `searched "${secret}" in the workspace — 0 matches`,
        ok: true,
      });
      const activity = posted.filter((m): m is Extract<ExtensionMessage, { type: 'activity' }> => m.type === 'activity');
      assert.deepEqual(
        activity.map((m) => [m.reset, m.entries.map((e) => e.text)]),
        [
          [true, []],
          [false, ['searched "[redacted]" in the workspace — 0 matches']],
        ],
      );
      const snapshot = await bridge.snapshot();
      const last = snapshot.at(-1);
      assert.equal(last?.type, 'activity');
      assert.deepEqual(last?.type === 'activity' ? last.entries.map((e) => e.kind) : [], ['tool']);
    } finally {
      forgetSecret(secret);
    }
  });
});
