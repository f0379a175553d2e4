// The CLI's phase runtimes (`run --parallel N`): each is made like the run's own, in the phase's
// worktree, as a phase; when the run hands it a compile check (the run's engine), its host answers
// compile checks with that one, not with an engine of its own.

import { strict as assert } from 'node:assert';
import type { CodeChecker, Host } from '../../../src/core/host';
import type { CommandContext } from '../../../src/cli/commands/context';
import { phaseRuntimes } from '../../../src/cli/commands/phase-runtimes';
import type { RuntimeOptions } from '../../../src/cli/wiring';

function capture(): { ctx: CommandContext; made: RuntimeOptions[] } {
  const made: RuntimeOptions[] = [];
  const ctx = {
    logger: { warn: () => undefined },
    deps: {
      createRuntime: async (options: RuntimeOptions) => {
        made.push(options);
        return { host: {}, orchestrator: {}, dispose: async () => undefined };
      },
    },
  } as unknown as CommandContext;
  return { ctx, made };
}

describe('phaseRuntimes (the CLI runs phases in worktrees of their own)', () => {
  it("gives the phase's host the run engine's compile check when handed one", async () => {
    const { ctx, made } = capture();
    const engine: CodeChecker = { check: () => Promise.reject(new Error('not asked')) };
    const own: CodeChecker = { check: () => Promise.reject(new Error('not asked either')) };
    const open = phaseRuntimes(ctx, { trusted: true } as never);
    await open('/repo/.ironbees/worktrees/r-phase-a', { codeCheck: engine });
    await open('/repo/.ironbees/worktrees/r-phase-b');
    assert.deepEqual(
      made.map((options) => [options.workspaceRoot, options.phase, options.trusted]),
      [
        ['/repo/.ironbees/worktrees/r-phase-a', true, true],
        ['/repo/.ironbees/worktrees/r-phase-b', true, true],
      ],
    );
    const phaseHost = { workspaceRoot: '/repo/.ironbees/worktrees/r-phase-a', codeCheck: own } as unknown as Host;
    assert.equal(made[0]?.decorateHost?.(phaseHost).codeCheck, engine);
    assert.equal(made[0]?.decorateHost?.(phaseHost).workspaceRoot, '/repo/.ironbees/worktrees/r-phase-a');
    assert.equal(made[1]?.decorateHost, undefined);
  });
});
