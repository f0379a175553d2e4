import assert from 'node:assert/strict';
import { forgetSecret, redact, redactDeep, registerSecret } from '../../../src/core/redact';

describe('redact', () => {
  const key = 'proxy-token-7f3a9c1e5b';
  afterEach(() => forgetSecret(key));

  it('masks a registered value that looks nothing like sk-ant-', () => {
    assert.equal(redact(`Authorization: Bearer ${key}`), `Authorization: Bearer ${key}`);
    registerSecret(key);
    assert.equal(redact(`Authorization: Bearer ${key}; again ${key}`), 'Authorization: Bearer [redacted]; again [redacted]');
  });

  it('masks sk-ant- shaped keys it was never told about', () => {
    assert.equal(redact('key sk-ant-api03-abcdefXYZ_12 used'), 'key [redacted] used');
  });

  it('ignores values too short to be secrets', () => {
    registerSecret('1234567');
    assert.equal(redact('build 1234567 ok'), 'build 1234567 ok');
  });

  it('masks the longer of two overlapping secrets whole', () => {
    registerSecret(key);
    registerSecret(`${key}-suffix`);
    try {
      assert.equal(redact(`${key}-suffix`), '[redacted]');
    } finally {
      forgetSecret(`${key}-suffix`);
    }
  });

  it('redactDeep masks strings at any depth and keeps untouched objects as they were', () => {
    registerSecret(key);
    const clean = { a: [1, 'two', { b: null }] };
    assert.equal(redactDeep(clean), clean);
    assert.deepEqual(redactDeep({ message: `failed with ${key}`, nested: [{ text: key }], n: 3 }), { message: 'failed with [redacted]', nested: [{ text: '[redacted]' }], n: 3 });
  });
});
