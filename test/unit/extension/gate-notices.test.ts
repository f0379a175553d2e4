// The editor's notifications at a run's gates and end (issue 31: reach the person where they are):
// with the panel hidden, the plan and diff gates say so with Review plan / Review changes (which open
// the panel), and the end with Open hand-off; with the panel in sight, no notification repeats what
// it shows. Run against a stand-in of the `vscode` module that records each message and answers it.

import assert from 'node:assert/strict';
import Module from 'node:module';
import * as path from 'node:path';
import type { CodingState, WorkflowNode } from '../../../src/core/model';
import type * as NoticesModule from '../../../src/extension/gate-notices';
import type { IronbeesActions } from '../../../src/extension/actions';
import type { RunController } from '../../../src/extension/run-controller';
import { makeRun } from '../webview/fixtures';

const shown: Array<[string, string, string[]]> = [];
let answer: string | undefined;
const show =
  (kind: string) =>
  async (message: string, ...actions: string[]): Promise<string | undefined> => {
    shown.push([kind, message, actions]);
    return answer;
  };
const vscodeStub = {
  window: { showInformationMessage: show('info'), showWarningMessage: show('warning'), showErrorMessage: show('error') },
};

type Resolve = (request: string, ...rest: unknown[]) => string;

describe('GateNotices: the editor tells a person away from the panel', () => {
  const moduleApi = Module as unknown as { _resolveFilename: Resolve };
  const original = moduleApi._resolveFilename;
  const stubPath = path.join(__dirname, '__vscode_notices_stub__.js');

  before(() => {
    require.cache[stubPath] = { id: stubPath, filename: stubPath, loaded: true, exports: vscodeStub } as unknown as NodeJS.Module;
    moduleApi._resolveFilename = function (request: string, ...rest: unknown[]): string {
      return request === 'vscode' ? stubPath : original.call(this, request, ...rest);
    };
  });
  after(() => {
    moduleApi._resolveFilename = original;
    delete require.cache[stubPath];
  });
  beforeEach(() => {
    shown.length = 0;
    answer = undefined;
  });

  async function drive(nodes: WorkflowNode[], visible: boolean): Promise<string[]> {
    // Loaded here, once `vscode` resolves to the stand-in.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { GateNotices } = require('../../../src/extension/gate-notices') as typeof NoticesModule;
    let listener: (state: CodingState | null) => void = () => undefined;
    const controller = {
      isLive: true,
      onDidChangeState: (l: (state: CodingState | null) => void) => {
        listener = l;
        return { dispose: () => undefined };
      },
    } as unknown as RunController;
    const done: string[] = [];
    const actions = { openHandoff: async (runId: string) => void done.push(`openHandoff ${runId}`) } as unknown as IronbeesActions;
    new GateNotices(
      controller,
      actions,
      async () => void done.push('showPanel'),
      () => visible,
    );
    for (const node of nodes) {
      listener(makeRun({ stateId: 'run-1', currentNode: node }));
      // Each notice is awaited by the class; let its answer be acted on.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return done;
  }

  it('with the panel hidden: Review plan, Review changes (each opens the panel), Open hand-off at the end', async () => {
    answer = 'Review plan';
    assert.deepEqual(await drive(['WAIT_PLAN_APPROVAL'], false), ['showPanel']);
    answer = 'Review changes';
    assert.deepEqual(await drive(['WAIT_DIFF_APPROVAL'], false), ['showPanel']);
    answer = 'Open hand-off';
    assert.deepEqual(await drive(['SUCCESS'], false), ['openHandoff run-1']);
    assert.deepEqual(shown, [
      ['info', 'Ironbees has a plan for you to review.', ['Review plan']],
      ['info', 'Ironbees has changes for you to review.', ['Review changes']],
      ['info', 'Ironbees: the run ended SUCCESS.', ['Open hand-off']],
    ]);
  });

  it('with the panel in sight: nothing at the gates or the end; one notice per node reached, not per state', async () => {
    assert.deepEqual(await drive(['WAIT_PLAN_APPROVAL', 'WAIT_DIFF_APPROVAL', 'SUCCESS'], true), []);
    assert.deepEqual(shown, []);
    await drive(['WAIT_DIFF_APPROVAL', 'WAIT_DIFF_APPROVAL'], false);
    assert.equal(shown.length, 1);
  });
});
