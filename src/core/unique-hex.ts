// Hex digits that only have to differ between processes and calls: a run id's suffix, a temporary
// file's name, the MSBuild handshake salt that keeps this process's build servers apart from others'.
// None of them is a secret (each sits in a file name or a process environment anyone on the machine
// can read), so Math.random — seeded per process by V8 from the system's entropy — is enough, and a
// start does not load node:crypto for them (lazy-crypto.ts). Secrets (the MCP bearer token, the
// webview's nonce) still come from node:crypto.

/** `bytes` random bytes as 2 × bytes lower-case hex digits. */
export function uniqueHex(bytes: number): string {
  let hex = '';
  for (let i = 0; i < bytes; i++) hex += Math.floor(Math.random() * 256).toString(16).padStart(2, '0');
  return hex;
}
