import assert from 'node:assert/strict';
import { diffsBody, diffsDecision } from '../../../src/serve/routes-schemas';

describe('serve /diffs body: answers per file and per hunk', () => {
  it('carries rejected hunks and a reason per hunk to the core decision', () => {
    const body = diffsBody.parse({
      approved: true,
      files: [{ filePath: 'src/A.cs', accepted: true, rejectedHunks: [1], hunkReasons: { '1': 'keep it' }, reason: 'others' }],
    });
    assert.deepEqual(diffsDecision(body), {
      type: 'APPROVE',
      files: [{ filePath: 'src/A.cs', accepted: true, rejectedHunks: [1], hunkReasons: { '1': 'keep it' }, reason: 'others' }],
    });
  });

  it('refuses hunk reasons keyed by anything but a hunk index, and unknown fields', () => {
    const file = { filePath: 'src/A.cs', accepted: true };
    assert.equal(diffsBody.safeParse({ approved: true, files: [{ ...file, hunkReasons: { first: 'x' } }] }).success, false);
    assert.equal(diffsBody.safeParse({ approved: true, files: [{ ...file, hunkReasons: { '-1': 'x' } }] }).success, false);
    assert.equal(diffsBody.safeParse({ approved: true, files: [{ ...file, hunkReasons: { '0': 'x'.repeat(4001) } }] }).success, false);
    assert.equal(diffsBody.safeParse({ approved: true, files: [{ ...file, hunks: [0] }] }).success, false);
  });
});
