// node:crypto on first use. Loading it is ~5 ms of every start (measured in a plain `node`: it brings
// its ciphers, streams and key classes with it), and a run needs none of it before the baseline's
// dotnet build is running: hashing starts with the first step's trace id and the edit journal. So it
// is reached through here, and the warm-up that runs beside the baseline's build (tool-warmup.ts,
// which makes the trace id) loads it then. Ids that only have to be unique (run ids, temporary names) do not need it at all:
// unique-hex.ts.

import type * as NodeCrypto from 'node:crypto';

/** node:crypto, loaded by the first call. */
export function nodeCrypto(): typeof NodeCrypto {
  return process.getBuiltinModule('node:crypto');
}

/** The SHA-256 of `data` (UTF-8 for a string), as 64 hex digits. */
export function sha256Hex(data: string | Uint8Array): string {
  return nodeCrypto().createHash('sha256').update(data).digest('hex');
}
