// What an agent's tools work with: the run's host, cancellation and approval gate, over the overlay
// its edits are staged in (the coder's, kept across its turns; a fresh, empty one for a read-only agent).

import type { ToolContext } from '../tools/types';
import { StagedOverlay } from '../workspace/overlay';
import type { AgentRuntime } from './types';

export function agentToolContext(rt: AgentRuntime, overlay: StagedOverlay = new StagedOverlay(rt.host)): ToolContext {
  return { host: rt.host, overlay, signal: rt.signal, ...(rt.toolApproval ? { approval: rt.toolApproval } : {}) };
}
