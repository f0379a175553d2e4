// Counts node:crypto's createHash calls while a test runs: the real module object is patched, so code
// that imported createHash by name calls the counter too (and ES module bindings are synced).

import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';

export interface HashCount {
  /** The algorithm of each hash made so far. */
  readonly algorithms: string[];
  /** The unpatched createHash, to work out expected values without counting them. */
  readonly createHash: typeof crypto.createHash;
  restore(): void;
}

export function countHashes(): HashCount {
  const original = crypto.createHash;
  const algorithms: string[] = [];
  crypto.createHash = ((algorithm: string, options?: crypto.HashOptions) => (
    algorithms.push(algorithm),
    original(algorithm, options)
  )) as typeof original;
  syncBuiltinESMExports();
  return {
    algorithms,
    createHash: original,
    restore: () => {
      crypto.createHash = original;
      syncBuiltinESMExports();
    },
  };
}
