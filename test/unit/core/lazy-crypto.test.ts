// node:crypto reached on first use (lazy-crypto.ts) and ids that only need to be unique (unique-hex.ts):
// the values stay exactly what they were when node:crypto was imported at start — a run's trace id is
// worked out again by every process that touches the run, so it must not change between versions.

import { strict as assert } from 'node:assert';
import { sha256Hex } from '../../../src/core/lazy-crypto';
import { uniqueHex } from '../../../src/core/unique-hex';
import { traceIdOf } from '../../../src/core/workflow/turn-trace';
import { sha256 } from '../../../src/core/workflow/edit-journal-wal';

describe('lazy node:crypto and unique hex ids', () => {
  it('hashes as before: SHA-256 in hex, a string as its UTF-8 bytes', () => {
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(sha256Hex(new TextEncoder().encode('é')), sha256Hex('é'));
    // The edit journal's content hash: a file's text and its bytes hash alike.
    assert.equal(sha256('é'), '4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
    assert.equal(sha256(new TextEncoder().encode('é')), '4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });

  it("keeps every run's trace id (the first 32 hex digits of SHA-256 of ironbees-run:<run id>)", () => {
    assert.equal(traceIdOf('run-7'), '3aadc0b7e45fc7ec9fe69b461a1ad680');
  });

  it('makes lower-case hex of the asked length, every byte value possible, practically never twice', () => {
    const ids = Array.from({ length: 2000 }, () => uniqueHex(3));
    assert.ok(ids.every((id) => /^[0-9a-f]{6}$/.test(id)), ids.find((id) => !/^[0-9a-f]{6}$/.test(id)));
    assert.ok(new Set(ids).size >= 1990, `${new Set(ids).size} distinct of 2000`);
    const bytes = new Set(ids.flatMap((id) => [id.slice(0, 2), id.slice(2, 4), id.slice(4, 6)]));
    // 6,000 draws: each of the 256 values turns up (that one is missing has a chance below 1e-7).
    assert.equal(bytes.size, 256);
    assert.equal(uniqueHex(4).length, 8);
  });
});
