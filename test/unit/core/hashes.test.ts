// The hashes a run keeps between processes and versions: a run's trace id is worked out again by every
// process that touches the run, and the edit journal compares content hashes written by an earlier one.

import { strict as assert } from 'node:assert';
import { traceIdOf } from '../../../src/core/workflow/turn-trace';
import { sha256 } from '../../../src/core/workflow/edit-journal-wal';

describe('stable hashes', () => {
  it("hashes the edit journal's content as SHA-256 in hex, a string as its UTF-8 bytes", () => {
    assert.equal(sha256('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(sha256('é'), '4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
    assert.equal(sha256(new TextEncoder().encode('é')), '4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });

  it("keeps every run's trace id (the first 32 hex digits of SHA-256 of ironbees-run:<run id>)", () => {
    assert.equal(traceIdOf('run-7'), '3aadc0b7e45fc7ec9fe69b461a1ad680');
  });
});
