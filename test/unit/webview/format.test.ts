import { strict as assert } from 'node:assert';
import {
  baseName,
  diffStats,
  formatCost,
  formatDuration,
  formatTokens,
  formatUsage,
  nodeLabel,
} from '../../../webview-ui/src/state/format';
import { SAMPLE_EDIT } from './fixtures';

describe('webview formatters', () => {
  it('formats token counts compactly', () => {
    assert.equal(formatTokens(0), '0');
    assert.equal(formatTokens(950), '950');
    assert.equal(formatTokens(1000), '1k');
    assert.equal(formatTokens(12_345), '12.3k');
    assert.equal(formatTokens(2_500_000), '2.5M');
    assert.equal(formatTokens(-3), '0');
  });

  it('formats cost so that cheap runs do not read as free', () => {
    assert.equal(formatCost(0), '$0.00');
    assert.equal(formatCost(0.0012), '$0.0012');
    assert.equal(formatCost(1.234), '$1.23');
  });

  it('formats usage with cache tokens only when there are some', () => {
    const usage = { inputTokens: 1500, outputTokens: 200, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.05 };
    assert.equal(formatUsage(usage), '1.5k in · 200 out · $0.05');
    assert.equal(formatUsage({ ...usage, cacheReadTokens: 3000 }), '1.5k in · 200 out · cache 3k · $0.05');
  });

  it('formats durations', () => {
    assert.equal(formatDuration(250), '250 ms');
    assert.equal(formatDuration(1500), '1.5 s');
    assert.equal(formatDuration(125_000), '2 min 5 s');
  });

  it('counts added and removed lines without the file headers', () => {
    assert.deepEqual(diffStats(SAMPLE_EDIT.diffText), { added: 1, removed: 1 });
    assert.deepEqual(diffStats(''), { added: 0, removed: 0 });
    assert.deepEqual(diffStats('--- a\n+++ b\n@@ -0,0 +1,3 @@\n+x\n+y\n+z\n'), { added: 3, removed: 0 });
  });

  it('labels nodes and paths', () => {
    assert.equal(nodeLabel('WAIT_PLAN_APPROVAL'), 'Approve plan');
    assert.equal(nodeLabel('SUCCESS'), 'Success');
    assert.equal(baseName('src/Calculator/Calculator.cs'), 'Calculator.cs');
    assert.equal(baseName('src\\A.cs'), 'A.cs');
  });
});
