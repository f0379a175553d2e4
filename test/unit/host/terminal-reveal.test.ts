// The baseline's terminal stays closed for a passing or a test-failing baseline; it opens only when
// the baseline cannot build.

import { strict as assert } from 'node:assert';
import { shouldRevealTerminal } from '../../../src/host/vscode/terminal-reveal';

const ok = { exitCode: 0, timedOut: false, cancelled: false };
const failed = { exitCode: 1, timedOut: false, cancelled: false };

describe('vscode host: when a task terminal opens', () => {
  it('stays closed for a baseline whose tests fail, and for validation', () => {
    assert.equal(shouldRevealTerminal('baseline', 'build', ok), false);
    assert.equal(shouldRevealTerminal('baseline', 'test', failed), false);
    assert.equal(shouldRevealTerminal('baseline', 'vstest', failed), false);
    assert.equal(shouldRevealTerminal(undefined, 'build', failed), false);
    assert.equal(shouldRevealTerminal('baseline', 'build', { ...failed, exitCode: null, cancelled: true }), false);
  });

  it('opens when the baseline cannot build or restore', () => {
    assert.equal(shouldRevealTerminal('baseline', 'build', failed), true);
    assert.equal(shouldRevealTerminal('baseline', 'restore', failed), true);
    assert.equal(shouldRevealTerminal('baseline', 'build', { exitCode: null, timedOut: true, cancelled: false }), true);
  });
});
