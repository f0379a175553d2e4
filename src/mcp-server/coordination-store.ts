// The APMAS records live in the core (workflow/coordination-store.ts), where the supervisor of
// Ironbees' own agents writes them too; the MCP server's tools reach them through the runtime.

export { CoordinationStore } from '../core/runtime/faces';
export type { AgentRecord, CoordinationMessage } from '../core/runtime/faces';
