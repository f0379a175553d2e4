// The supervisor's records (agents/supervisor/records.ts) written to the run's coordination store:
// the same agents.json, checkpoints and messages.jsonl the APMAS tools of `ironbees mcp` read and
// write, so `apmas_get_context` on a run Ironbees runs shows its own agents and their heartbeats.

import { randomUUID } from 'node:crypto';
import type { SupervisionRecords } from '../agents/supervisor/records';
import type { CoordinationStore } from './coordination-store';

export function coordinationRecords(store: CoordinationStore, runId: string, now: () => number, phaseId?: string): SupervisionRecords {
  const at = (): string => new Date(now()).toISOString();
  const named = (agent: string): string => (phaseId ? `${agent}@${phaseId}` : agent);
  return {
    update: async (agent, change) => {
      await store.updateAgent(runId, named(agent), (record) => ({
        ...record,
        ...(change.status !== undefined ? { status: change.status } : {}),
        ...(change.progress !== undefined ? { progress: change.progress } : {}),
        ...(change.message !== undefined ? { message: change.message } : {}),
        ...(change.summary !== undefined ? { summary: change.summary } : {}),
        ...(change.lastHeartbeat !== undefined ? { lastHeartbeat: change.lastHeartbeat } : {}),
        ...(change.completed ? { completedAt: at() } : {}),
        artifacts: [...new Set([...record.artifacts, ...(change.artifacts ?? [])])],
      }));
    },
    checkpoint: async (agent, checkpoint) => {
      await store.saveCheckpoint(runId, named(agent), checkpoint);
    },
    message: (message) => store.appendMessage(runId, { id: randomUUID(), at: at(), ...message }),
  };
}
