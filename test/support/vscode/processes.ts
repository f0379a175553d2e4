// Starting and reliably stopping the servers the tests need. Each server runs in its own process
// group so stopping it also stops the extension hosts and helpers it spawned.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A port nobody listens on right now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

export interface ScratchDirs {
  readonly root: string;
  readonly make: (name: string) => string;
  readonly remove: () => void;
}

/** One temp folder per run holding every server dir and TMPDIR, so nothing leaks between runs. */
export function scratchDirs(prefix: string): ScratchDirs {
  const root = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return {
    root,
    make: (name) => mkdtempSync(join(root, `${name}-`)),
    remove: () => rmSync(root, { recursive: true, force: true, maxRetries: 3 }),
  };
}

export interface Started {
  readonly child: ChildProcess;
  /** Resolves once `pattern` appears in the output; rejects if the process exits first or time runs out. */
  readonly waitFor: (pattern: RegExp, timeoutMs: number) => Promise<void>;
  readonly output: () => string;
  /** Resolves when the server process exits, for whatever reason. */
  readonly exited: Promise<void>;
  readonly stop: () => Promise<void>;
}

export function startServer(command: string, args: readonly string[], env: NodeJS.ProcessEnv, logFile: string): Started {
  const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(logFile);
  let text = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    log.write(chunk);
    text += chunk.toString('utf8');
    if (text.length > 200_000) text = text.slice(-100_000);
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  let exited = child.exitCode !== null;
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );

  const waitFor = (pattern: RegExp, timeoutMs: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const done = (error?: Error): void => {
        listeners.delete(check);
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
      const check = (): void => {
        if (pattern.test(text)) done();
      };
      const timer = setTimeout(
        () => done(new Error(`timed out after ${timeoutMs} ms waiting for ${pattern} from ${command}\n${text.slice(-4000)}`)),
        timeoutMs,
      );
      void exitedPromise.then(() => done(new Error(`${command} exited before printing ${pattern}\n${text.slice(-4000)}`)));
      listeners.add(check);
      check();
    });

  const stop = async (): Promise<void> => {
    if (!exited) {
      signalGroup(child, 'SIGTERM');
      const killer = setTimeout(() => signalGroup(child, 'SIGKILL'), 5000);
      await exitedPromise;
      clearTimeout(killer);
    }
    // The group may still hold children (extension hosts) after the leader exits.
    signalGroup(child, 'SIGKILL');
    await new Promise<void>((resolve) => log.end(resolve));
  };

  return { child, waitFor, output: () => text, exited: exitedPromise, stop };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}
