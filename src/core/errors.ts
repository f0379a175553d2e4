// The error hierarchy. An exception here is for a bug or an unrecoverable condition;
// tool failures the model can act on are data (ToolOutcome), not exceptions.

import { redact } from './redact';

export class AgentModeError extends Error {
  constructor(
    message: string,
    readonly code: string = 'AGENT_MODE_ERROR',
    readonly details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class OrchestratorError extends AgentModeError {
  constructor(message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message, 'ORCHESTRATOR_ERROR', details, options);
  }
}

export class AgentExecutionError extends AgentModeError {
  constructor(
    readonly agentName: string,
    message: string,
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(`${agentName}: ${message}`, 'AGENT_EXECUTION_ERROR', { agentName, ...details }, options);
  }
}

export class ToolExecutionError extends AgentModeError {
  constructor(
    readonly toolName: string,
    message: string,
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(`${toolName}: ${message}`, 'TOOL_EXECUTION_ERROR', { toolName, ...details }, options);
  }
}

export class StateNotFoundError extends AgentModeError {
  constructor(readonly stateId: string) {
    super(`No run with id ${stateId}`, 'STATE_NOT_FOUND', { stateId });
  }
}

export class InvalidStateError extends AgentModeError {
  constructor(
    readonly stateId: string,
    readonly currentNode: string,
    readonly expected: string,
  ) {
    super(`Run ${stateId} is at ${currentNode}; this needs ${expected}`, 'INVALID_STATE', { stateId, currentNode, expected });
  }
}

export class ToolNotFoundError extends AgentModeError {
  constructor(
    readonly toolName: string,
    readonly available: readonly string[] = [],
  ) {
    super(`Unknown tool "${toolName}"${available.length ? `; available: ${available.join(', ')}` : ''}`, 'TOOL_NOT_FOUND', {
      toolName,
      available,
    });
  }
}

/** Bad configuration or usage: the CLI maps it to exit code 2 and nothing is changed. */
export class ConfigurationError extends AgentModeError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message, 'CONFIGURATION_ERROR', details);
  }
}

/**
 * Another run holds the workspace (its lock in .ironbees/run.lock names it): two runs would apply
 * edits and build in the same obj/ at once. The CLI maps it to exit code 2; nothing was written.
 */
export class WorkspaceBusyError extends AgentModeError {
  constructor(
    message: string,
    readonly holder: { runId: string; pid: number; hostname: string; startedAt: string },
  ) {
    super(message, 'WORKSPACE_BUSY', { ...holder });
  }
}

/** A path that resolves outside the workspace, or into .git/ or .ironbees/. */
export class PathOutsideWorkspaceError extends AgentModeError {
  constructor(
    readonly requested: string,
    reason: string,
  ) {
    super(`Refused path "${requested}": ${reason}`, 'PATH_REFUSED', { requested });
  }
}

/** The message of an error, with every known secret masked: messages reach logs, the panel and the model. */
/**
 * A path that is not a regular file (a FIFO, a socket, a device): refused before it is opened, since
 * opening a FIFO blocks until someone writes to it and a device may never end.
 */
export class NotRegularFileError extends AgentModeError {
  constructor(
    readonly filePath: string,
    kind: string,
  ) {
    super(`${filePath} is ${kind}, not a regular file; only regular files are read`, 'NOT_REGULAR_FILE', { filePath, kind });
  }
}

/** A file larger than its reader takes: refused from its size, before any byte is read. */
export class FileTooLargeError extends AgentModeError {
  constructor(
    readonly filePath: string,
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super(`${filePath} is ${formatBytes(size)}; files over ${formatBytes(maxBytes)} are not read`, 'FILE_TOO_LARGE', {
      filePath,
      size,
      maxBytes,
    });
  }
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
}

export function errorMessage(error: unknown): string {
  return redact(error instanceof Error ? error.message : String(error));
}

/** The failure taxonomy of tool calls (tools/failure.ts): one kind per failed call, recorded in traces. */
export const TOOL_ERROR_KINDS = [
  'InvalidInput',
  'Timeout',
  'RetryableServer',
  'RateLimited',
  'OutputSchemaMismatch',
  'NoResults',
  'ToolBug',
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'Cancelled',
] as const;
export type ToolErrorKind = (typeof TOOL_ERROR_KINDS)[number];
