// What the faces (the CLI, the MCP server) use of the layers below the composition root, offered
// here so a face reaches the core through the runtime (eslint-rules/layers.mjs holds it).

export { findBuildTarget } from '../dotnet/target';
export { shutdownBuildServers } from '../dotnet/dotnet-cli';
export { runBuild } from '../dotnet/build';
export { dotnetSession } from '../dotnet/session';
export { runTests } from '../dotnet/test';
export { findReferencesTool, findSymbolsTool } from '../tools/symbol-tools';
export { ToolRegistry, inputJsonSchema } from '../tools/registry';
export type { ToolDefinition, ToolOutcome } from '../tools/types';
export { RunStore } from '../workflow/store';
export { CoordinationStore } from '../workflow/coordination-store';
export type { AgentRecord, CoordinationMessage } from '../workflow/coordination-store';
export { rewindRun, RewindConflictError } from '../workflow/rewind';
export { previewRewind, rewindTargetBytes } from '../workflow/rewind-preview';
export type { RewindPreview } from '../workflow/rewind-preview';
export { acquireRunLock } from '../workflow/run-lock';
export type { CheckpointSummary } from '../workflow/checkpoint-store';
