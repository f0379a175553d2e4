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

  it('masks GitHub, AWS, OpenAI, Slack and Google key shapes, and leaves look-alike words', () => {
    assert.equal(
      redact('gh ghp_Abc123Def456Ghi789Jkl012Mno345Pqr678 pat github_pat_11ABCDEFG0123456789_abcdefXYZ aws AKIAIOSFODNN7EXAMPLE'),
      'gh [redacted] pat [redacted] aws [redacted]',
    );
    assert.equal(redact('openai sk-proj-AbCdEf0123456789XyZ_ab slack xoxb-1234567890-abcdef'), 'openai [redacted] slack [redacted]');
    assert.equal(redact('google AIzaSyA1234567890abcdefghijklmnopqrstuv'), 'google [redacted]');
    assert.equal(redact('ghp_short AKIA123 sk-notakey task-runner'), 'ghp_short AKIA123 sk-notakey task-runner');
  });

  it('redactDeep keeps the values of the keys it is told to keep, at any depth', () => {
    registerSecret(key);
    assert.deepEqual(redactDeep({ edits: [{ newContent: key, diffText: key }] }, { keepKeys: ['newContent'] }), {
      edits: [{ newContent: key, diffText: '[redacted]' }],
    });
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
    assert.deepEqual(redactDeep({ message: `failed with ${key}`, nested: [{ text: key }], n: 3 }), {
      message: 'failed with [redacted]',
      nested: [{ text: '[redacted]' }],
      n: 3,
    });
  });
});
