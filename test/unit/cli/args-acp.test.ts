// `ironbees acp`'s command line: its options, and what it refuses.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { parseCliArgs } from '../../../src/cli/args';
import { UsageError } from '../../../src/cli/exit-codes';

const CWD = path.resolve('/home/dev/project');

describe('ironbees acp: arguments', () => {
  it('without --workspace each session works in its own folder; the options as given', () => {
    assert.deepEqual(parseCliArgs(['acp'], CWD), { command: 'acp', trustWorkspace: false, demo: false, sandbox: 'auto' });
    assert.deepEqual(
      parseCliArgs(['acp', '-w', 'app', '--trust-workspace', '--demo', '--model', ' m1 ', '--provider', 'openai', '--sandbox', 'off'], CWD),
      {
        command: 'acp',
        workspace: path.join(CWD, 'app'),
        trustWorkspace: true,
        demo: true,
        model: 'm1',
        provider: 'openai',
        sandbox: 'off',
      },
    );
  });

  it('refuses an argument, an unknown provider and an empty model', () => {
    assert.throws(
      () => parseCliArgs(['acp', 'now'], CWD),
      (error: unknown) => error instanceof UsageError && /acp takes no arguments/.test(error.message),
    );
    assert.throws(() => parseCliArgs(['acp', '--provider', 'nope'], CWD), /--provider must be one of/);
    assert.throws(() => parseCliArgs(['acp', '--model', ' '], CWD), /--model needs a model id/);
  });
});
