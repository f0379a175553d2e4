import { strict as assert } from 'node:assert';
import { ExitCode, UsageError, exitCodeForError, exitCodeForNode } from '../../../src/cli/exit-codes';
import { AgentModeError, ConfigurationError, InvalidStateError, StateNotFoundError, ToolExecutionError } from '../../../src/core/errors';

/** Stands in for the agent loader's AgentConfigError, which extends ConfigurationError. */
class AgentConfigErrorLike extends ConfigurationError {}

describe('cli exit codes', () => {
  it('maps end nodes to the contract', () => {
    assert.equal(exitCodeForNode('SUCCESS'), 0);
    assert.equal(exitCodeForNode('FAILED'), 1);
    assert.equal(exitCodeForNode('WAIT_HUMAN'), 3);
    assert.equal(exitCodeForNode('CANCELLED', true), 4);
    assert.equal(ExitCode.STOPPED_AT_ESCALATION, 4);
    assert.equal(exitCodeForNode('CANCELLED'), 130);
    assert.equal(exitCodeForNode('CODE'), 130);
  });

  it('maps usage and configuration errors to 2, anything else to 1', () => {
    const cases: Array<[unknown, number]> = [
      [new UsageError('bad flag'), ExitCode.USAGE],
      [new ConfigurationError('no key'), ExitCode.USAGE],
      [new AgentConfigErrorLike('agents/coder/agent.yaml: llmConfig.model must be a string'), ExitCode.USAGE],
      [new StateNotFoundError('r-1'), ExitCode.USAGE],
      [new InvalidStateError('r-1', 'SUCCESS', 'WAIT_HUMAN'), ExitCode.USAGE],
      [new AgentModeError('boom'), ExitCode.FAILED],
      [new ToolExecutionError('read_file', 'x'), ExitCode.FAILED],
      [new Error('bug'), ExitCode.FAILED],
      ['a string', ExitCode.FAILED],
    ];
    for (const [error, code] of cases) assert.equal(exitCodeForError(error), code, String(error));
  });
});
