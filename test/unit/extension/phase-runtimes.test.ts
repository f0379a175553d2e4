// The editor's phase runtimes (ironbees.parallel > 1): each phase gets a runtime built for its
// worktree (its compile check the run engine's when handed one), its run is that runtime's run (the request, context, signal and run id handed through),
// and its end closes that runtime only; a failing close is said, never thrown into the run.

import { strict as assert } from 'node:assert';
import type { CodingState, WorkflowContext } from '../../../src/core/model';
import { openPhaseRuntimes } from '../../../src/extension/phase-runtimes';
import type { ExtensionRuntime } from '../../../src/extension/runtime';
import { placement } from '../../../src/extension/runtime-placement';

function fakeRuntime(workspace: string, calls: string[], closeFails = false): ExtensionRuntime {
  return {
    host: { workspaceRoot: workspace, logger: { warn: () => undefined } },
    orchestrator: {
      async *execute(request: string, context: WorkflowContext, _signal: AbortSignal, runId: string) {
        calls.push(`execute ${request} in ${context.workspaceRoot} as ${runId} (runtime of ${workspace})`);
        yield { stateId: runId, currentNode: 'SUCCESS' } as CodingState;
      },
    },
    tools: {},
    close: async () => {
      calls.push(`close ${workspace}`);
      if (closeFails) throw new Error('the MCP server would not stop');
    },
  } as unknown as ExtensionRuntime;
}

describe('openPhaseRuntimes (the editor runs phases in worktrees of their own)', () => {
  it("builds a runtime for the phase's worktree, runs the phase there and closes only that runtime", async () => {
    const calls: string[] = [];
    const warnings: string[] = [];
    const open = openPhaseRuntimes(
      async (workspace, parts) => {
        calls.push(`build ${workspace}${parts?.codeCheck ? ' checked by the run engine' : ''}`);
        return fakeRuntime(workspace, calls, workspace.endsWith('b'));
      },
      { warn: (line: string) => warnings.push(line) } as never,
    );
    const engine = { check: () => Promise.reject(new Error('not asked')) };
    const a = await open('/repo/.ironbees/worktrees/r-phase-a', { codeCheck: engine });
    const b = await open('/repo/.ironbees/worktrees/r-phase-b');
    const context = { workspaceRoot: '/repo/.ironbees/worktrees/r-phase-a' } as WorkflowContext;
    const states: string[] = [];
    for await (const state of a.execute('Do a', context, new AbortController().signal, 'r-phase-a')) states.push(state.currentNode);
    await a.dispose();
    await b.dispose();
    assert.deepEqual(states, ['SUCCESS']);
    assert.deepEqual(calls, [
      'build /repo/.ironbees/worktrees/r-phase-a checked by the run engine',
      'build /repo/.ironbees/worktrees/r-phase-b',
      'execute Do a in /repo/.ironbees/worktrees/r-phase-a as r-phase-a (runtime of /repo/.ironbees/worktrees/r-phase-a)',
      'close /repo/.ironbees/worktrees/r-phase-a',
      'close /repo/.ironbees/worktrees/r-phase-b',
    ]);
    assert.deepEqual(warnings, ["Stopping a phase's MCP servers: the MCP server would not stop"]);
  });
});

describe('placement (which editor runtime runs phases at once)', () => {
  const build = async (): Promise<ExtensionRuntime> => ({}) as ExtensionRuntime;
  it("the folder's runtime with ironbees.parallel > 1 builds phase runtimes; 1 or unset does not", () => {
    assert.deepEqual(placement({ parallel: 2 }, undefined, false, build), { phaseRuntime: build });
    assert.deepEqual(placement({ parallel: 1 }, undefined, false, build), {});
    assert.deepEqual(placement({}, undefined, false, build), {});
  });
  it('a phase runtime works in its worktree without a language server and builds no phases of its own', () => {
    assert.deepEqual(placement({ parallel: 2 }, '/repo/.ironbees/worktrees/r-phase-a', true, build), {
      languageServer: false,
      phase: true,
    });
  });
});
