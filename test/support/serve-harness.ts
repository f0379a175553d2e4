// Starts the bundled CLI's `ironbees serve` on 127.0.0.1 (any free port) for the serve tests, and
// reads where it listens from its first stdout line.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { CLI } from './cli-harness';

export interface Server {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

export async function startServer(root: string, env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, [CLI, 'serve', '--workspace-root', root, '--port', '0'], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const first = stdout.split('\n')[0];
      if (stdout.includes('\n')) {
        const match = /^listening (http:\/\/127\.0\.0\.1:\d+)$/.exec(first);
        if (match) resolve(match[1]);
        else reject(new Error(`first stdout line: ${first}`));
      }
    });
    void exited.then((code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr, exited };
}

export async function stopServer(server: Server): Promise<number | null> {
  server.child.kill('SIGINT');
  return server.exited;
}
