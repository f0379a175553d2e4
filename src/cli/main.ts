// The CLI proper (bundled to dist/cli-main.js, which dist/cli.js runs: start.ts): real streams and
// signals in, exit code out.

import { runCli } from './app';

function onInterrupt(handler: () => void): () => void {
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}

// Ended by a signal, the process still goes out through 'exit', whose listeners remove the run lock
// (Node's default for these signals ends it without them, leaving run.lock behind).
for (const [signal, code] of [
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  process.once(signal, () => process.exit(code));
}

runCli(process.argv.slice(2), {
  // Opened when first read (a question, `ironbees mcp`): a run with --yes never does.
  get stdin() {
    return process.stdin;
  },
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  onInterrupt,
  exitNow: (code) => process.exit(code),
}).then(
  (code) => {
    // Let stdout drain (a pipe may be slow), then end even if a stray handle (a timer, stdin) lingers.
    process.stdout.write('', () => process.exit(code));
  },
  (error: unknown) => {
    process.stderr.write(`ironbees: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
