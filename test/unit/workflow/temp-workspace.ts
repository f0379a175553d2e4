// A workspace in a fresh temp dir with the Node host, and readers for what a run leaves in it.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Host, Logger } from '../../../src/core/host';
import { createNodeHost } from '../../../src/host/node';
import type { PersistedRun } from '../../../src/core/workflow/store';
import type { TraceEvent } from '../../../src/core/trace';

const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

export class TempWorkspace {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-orchestrator-'));
  readonly host: Host = createNodeHost(this.dir, { logger: silent });

  write(rel: string, data: string | Uint8Array): void {
    fs.mkdirSync(path.dirname(this.abs(rel)), { recursive: true });
    fs.writeFileSync(this.abs(rel), data);
  }

  read(rel: string): Buffer | null {
    return fs.existsSync(this.abs(rel)) ? fs.readFileSync(this.abs(rel)) : null;
  }

  runFile(runId: string, name: string): string | null {
    return this.read(path.join('.ironbees', 'runs', runId, name))?.toString('utf8') ?? null;
  }

  state(runId: string): PersistedRun {
    const text = this.runFile(runId, 'state.json');
    if (text === null) throw new Error(`no state.json for ${runId}`);
    return JSON.parse(text) as PersistedRun;
  }

  events(runId: string): TraceEvent[] {
    return (this.runFile(runId, 'events.jsonl') ?? '')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as TraceEvent);
  }

  transitions(runId: string): string[] {
    return this.events(runId).flatMap((e) => (e.kind === 'transition' ? [`${e.from ?? '∅'}→${e.to}`] : []));
  }

  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private abs(rel: string): string {
    return path.join(this.dir, rel);
  }
}

/**
 * Mocha hooks for a suite of runs: `ws` is a fresh workspace in each test; after it, every run the test
 * put in `controllers` is stopped (nothing a failed test left running outlives it) and the workspace removed.
 */
export function tempWorkspaceEachTest(): { readonly ws: TempWorkspace; readonly controllers: AbortController[] } {
  let current: TempWorkspace | null = null;
  const controllers: AbortController[] = [];
  beforeEach(() => {
    current = new TempWorkspace();
  });
  afterEach(() => {
    for (const controller of controllers.splice(0)) controller.abort();
    current?.remove();
    current = null;
  });
  return {
    get ws(): TempWorkspace {
      if (!current) throw new Error('tempWorkspaceEachTest: the workspace exists only inside a test');
      return current;
    },
    controllers,
  };
}
