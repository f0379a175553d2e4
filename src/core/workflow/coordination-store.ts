// The APMAS coordination state kept beside a run in the run store, one model for the agents outside
// (the apmas_* tools of `ironbees mcp`) and Ironbees' own (the supervisor, supervision-records.ts):
// `.ironbees/runs/<runId>/coordination/` holds agents.json (status, heartbeat, artifacts),
// checkpoints/<agent>.json (the latest checkpoint, persisted) and messages.jsonl (the message log).
// Without a run id it lives in `.ironbees/coordination/`. A request for help is an escalation: logged,
// recorded on the run's trace, and shown by get_run_state until the person answers the run.
//
// agents.json and escalations.json are read, changed and written whole, and agents call in
// concurrently (several HTTP sessions share a process), so each file's changes run one after another
// on a promise chain; host.fs.writeFile writes a temporary file and renames it, so a reader never sees
// half a file.
//
// Every file is opened through the one containment check (its tooling-folder form): a link anywhere
// on the way (`.ironbees`, the run folder, `coordination/`, the file itself) is refused, so no tool
// reads or appends to a file outside the workspace.

import * as path from 'node:path';
import type { Host } from '../host';
import { RunStore } from './store';
import { resolveToolingPath } from '../workspace/paths';

export interface AgentRecord {
  agent: string;
  status: string;
  message?: string;
  progress?: string;
  artifacts: string[];
  lastHeartbeat?: string;
  completedAt?: string;
  summary?: string;
}

export interface CoordinationMessage {
  id: string;
  at: string;
  from: string;
  to: string;
  type: string;
  content: string;
  artifacts?: string[];
}

/** Per file across every store of the process: each HTTP session has its own store over the same files. */
const fileQueues = new Map<string, Promise<unknown>>();

function serialised<T>(file: string, change: () => Promise<T>): Promise<T> {
  const previous = fileQueues.get(file) ?? Promise.resolve();
  const next = previous.then(change, change);
  const settled = next.catch(() => undefined);
  fileQueues.set(file, settled);
  // Forget an idle file so the map does not grow with every run id.
  void settled.then(() => {
    if (fileQueues.get(file) === settled) fileQueues.delete(file);
  });
  return next;
}

export class CoordinationStore {
  private readonly runs: RunStore;

  constructor(private readonly host: Host) {
    this.runs = new RunStore(host);
  }

  dir(runId: string | undefined): string {
    return runId ? path.join(this.runs.runDir(runId), 'coordination') : path.join(this.host.workspaceRoot, '.ironbees', 'coordination');
  }

  /** A file of the store, checked: throws PathOutsideWorkspaceError when a link is on its way. */
  private file(runId: string | undefined, ...parts: string[]): string {
    const file = path.join(this.dir(runId), ...parts);
    return resolveToolingPath(this.host.workspaceRoot, path.relative(this.host.workspaceRoot, file));
  }

  async agents(runId?: string): Promise<Record<string, AgentRecord>> {
    return (await this.readJson<Record<string, AgentRecord>>(this.file(runId, 'agents.json'))) ?? {};
  }

  async updateAgent(runId: string | undefined, agent: string, change: (record: AgentRecord) => AgentRecord): Promise<AgentRecord> {
    await this.runs.ensureLayout();
    const file = this.file(runId, 'agents.json');
    return serialised(file, async () => {
      const all = await this.agents(runId);
      const next = change(all[agent] ?? { agent, status: 'working', artifacts: [] });
      all[agent] = next;
      await this.host.fs.writeFile(file, JSON.stringify(all, null, 1));
      return next;
    });
  }

  async saveCheckpoint(runId: string | undefined, agent: string, checkpoint: Record<string, unknown>): Promise<string> {
    await this.runs.ensureLayout();
    const file = this.file(runId, 'checkpoints', `${agent.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
    await this.host.fs.writeFile(file, JSON.stringify(checkpoint, null, 1));
    return path.relative(this.host.workspaceRoot, file).split(path.sep).join('/');
  }

  async checkpoints(runId?: string): Promise<Record<string, unknown>[]> {
    const dir = this.file(runId, 'checkpoints');
    if (!(await this.host.fs.exists(dir))) return [];
    const files = await this.host.fs.listFiles(dir, { maxFiles: 1000 });
    const out: Record<string, unknown>[] = [];
    for (const file of files) {
      const value = await this.readJson<Record<string, unknown>>(this.file(runId, 'checkpoints', file));
      if (value) out.push(value);
    }
    return out;
  }

  async appendMessage(runId: string | undefined, message: CoordinationMessage): Promise<void> {
    await this.runs.ensureLayout();
    await this.host.fs.appendFile(this.file(runId, 'messages.jsonl'), `${JSON.stringify(message)}\n`);
  }

  async messages(runId: string | undefined, limit: number): Promise<CoordinationMessage[]> {
    const bytes = await this.host.fs.readFile(this.file(runId, 'messages.jsonl'));
    if (!bytes) return [];
    const lines = new TextDecoder().decode(bytes).split('\n').filter(Boolean);
    return lines.slice(-limit).map((line) => JSON.parse(line) as CoordinationMessage);
  }

  /** Escalations are help requests not yet answered; answering the run (approve_run) clears them. */
  async escalations(runId?: string): Promise<CoordinationMessage[]> {
    return (await this.readJson<CoordinationMessage[]>(this.file(runId, 'escalations.json'))) ?? [];
  }

  async escalate(runId: string | undefined, message: CoordinationMessage): Promise<void> {
    const file = this.file(runId, 'escalations.json');
    await serialised(file, async () => {
      const open = [...(await this.escalations(runId)), message];
      await this.host.fs.writeFile(file, JSON.stringify(open, null, 1));
    });
    if (runId && (await this.host.fs.exists(path.join(this.runs.runDir(runId), 'state.json')))) {
      await this.runs.appendEvent(runId, {
        kind: 'error',
        at: message.at,
        message: `escalation: ${message.from} asks for help: ${message.content}`,
      });
    }
  }

  async clearEscalations(runId?: string): Promise<void> {
    const file = this.file(runId, 'escalations.json');
    // On the same chain, so a clear between an escalation's read and its write cannot bring cleared ones back.
    await serialised(file, () => this.host.fs.writeFile(file, '[]'));
  }

  private async readJson<T>(file: string): Promise<T | null> {
    const bytes = await this.host.fs.readFile(file);
    if (!bytes) return null;
    return JSON.parse(new TextDecoder().decode(bytes)) as T;
  }
}
