// Hosts that differ from the workspace's only in how their commands start. The dotnet session is
// found by the host it is given (session.ts), so these are only ever handed to the code that starts
// processes — a session looked up with one of them would be a second, empty session.

import type { Host, RunOptions } from '../host';

/** The same host, whose commands carry `label` (a VS Code task names its terminal after it). */
export function withProcessLabel(host: Host, label: string): Host {
  const labelled = Object.create(host) as Host;
  Object.defineProperty(labelled, 'process', {
    value: {
      run: (command: string, args: readonly string[], options: RunOptions) => host.process.run(command, args, { ...options, label }),
      sandboxes: host.process.sandboxes,
    },
  });
  return labelled;
}

/** `host`, calling `then` once, on the next turn of the event loop after its first process has started. */
export function afterFirstProcessStarts(host: Host, then: () => void): Host {
  let started = false;
  const watched = Object.create(host) as Host;
  Object.defineProperty(watched, 'process', {
    value: {
      run: (...args: Parameters<Host['process']['run']>) => {
        const running = host.process.run(...args);
        if (!started) {
          started = true;
          setImmediate(then);
        }
        return running;
      },
      sandboxes: host.process.sandboxes,
    },
  });
  return watched;
}
