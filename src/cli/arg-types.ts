// The parsed shapes of the commands that do not drive a run (args.ts parses them all and re-exports
// these), apart so the parser stays one readable file.

import type { ProviderName } from '../core/llm/providers/choice';
import type { SandboxMode } from '../core/platform/sandbox';

export interface RunsArgs {
  command: 'runs';
  workspace: string;
  json: boolean;
}

export interface RevertArgs {
  command: 'revert';
  runId: string;
  workspace: string;
}

/** `ironbees apply <runId>`: a worktree run's branch into the working tree, file by file. */
export interface ApplyArgs {
  command: 'apply';
  runId: string;
  workspace: string;
  yes: boolean;
  /** Overwrite files with local changes. */
  force: boolean;
}

export interface TraceArgs {
  command: 'trace';
  runId: string;
  workspace: string;
  json: boolean;
}

export interface McpArgs {
  command: 'mcp';
  workspace: string;
  trustWorkspace: boolean;
  http: boolean;
  /** 0 = any free port (printed on stderr). */
  port: number;
  token?: string;
  demo: boolean;
  /** --sandbox for the build and test tools and the runs started through MCP. */
  sandbox: SandboxMode;
}

/** `ironbees bench <task-file>`: every task of the file on a fresh copy, non-interactively, and a report. */
export interface BenchArgs {
  command: 'bench';
  /** Absolute path of the task file (JSON or YAML). */
  taskFile: string;
  /** Absolute folder the report is written to. */
  out: string;
  demo: boolean;
  model?: string;
  provider?: ProviderName;
  /** --max-cost per task, in dollars. */
  maxCostUsd?: number;
  maxIterations: number;
  sandbox: SandboxMode;
  /** --keep: the task copies are left in the temp folder (their paths are in the report). */
  keep: boolean;
}
