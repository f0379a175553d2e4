// Token counts are grouped as toLocaleString('en-US') groups them, without loading ICU at the end of a run.

import { strict as assert } from 'node:assert';
import { groupDigits } from '../../../src/cli/render/numbers';

describe('groupDigits', () => {
  it('writes counts as en-US does', () => {
    assert.equal(groupDigits(0), '0');
    assert.equal(groupDigits(999), '999');
    assert.equal(groupDigits(1000), '1,000');
    assert.equal(groupDigits(1234567), '1,234,567');
    assert.equal(groupDigits(-98765), '-98,765');
    for (const value of [7, 12_345, 100_000, 9_007_199_254_740_991, 12.5, 1234.5678, -0.25])
      assert.equal(groupDigits(value), value.toLocaleString('en-US'));
  });
});
