// The run's context as `ironbees run` persists it: modelProvider says who answers for the model, so a
// resume uses the same: 'demo' with --demo, the --provider given, and nothing else.

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { parseCliArgs } from '../../../src/cli/args';
import type { RunArgs } from '../../../src/cli/args';
import { workflowContextFor } from '../../../src/cli/commands/run';

const runArgs = (...flags: string[]): RunArgs => {
  const command = parseCliArgs(['run', 'Fix it', ...flags], path.resolve('.'));
  assert.equal(command.command, 'run');
  return command as RunArgs;
};

describe('the run context of ironbees run', () => {
  it('stores the provider the run was started with as its modelProvider', () => {
    const openai = workflowContextFor(runArgs('--provider', 'openai', '--model', 'gpt-4.1'), undefined);
    assert.equal(openai.provider, 'openai');
    assert.equal(openai.modelProvider, 'openai');
    assert.equal(workflowContextFor(runArgs('--provider', 'anthropic'), undefined).modelProvider, 'anthropic');
  });

  it("stores 'demo' with --demo, and no modelProvider when each agent chooses its own", () => {
    assert.equal(workflowContextFor(runArgs('--demo'), undefined).modelProvider, 'demo');
    const own = workflowContextFor(runArgs(), undefined);
    assert.equal('modelProvider' in own, false);
    assert.equal('provider' in own, false);
  });
});
