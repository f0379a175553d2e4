// What a tool is, as the agents' tool-use loop sees it (a ToolSpec). Failures the model can
// fix are data (`ok: false` with a message saying how, and a taxonomy kind), never exceptions.
//
// One shape for built-in and MCP tools: the registry's `execute` (the adapter) validates input,
// enforces the time limit, retries what is retryable, checks the output and caps the payload the
// same way for both.

import type { ZodType } from 'zod';
import type { Host } from '../host';
import type { StagedOverlay } from '../workspace/overlay';
import type { ToolErrorKind } from './failure';

export type { ToolErrorKind } from './failure';

/** What a person is shown before a tool with side effects runs. */
export interface ToolApprovalRequest {
  tool: string;
  input: unknown;
  description: string;
}

export interface ToolApprovalVerdict {
  approved: boolean;
  /** Told to the model when the call is refused. */
  reason?: string;
}

/** Asked before a tool with side effects outside the staged overlay runs (an MCP tool that writes). */
export interface ToolApprovalGate {
  /** `never`: run without asking (the person chose so, e.g. --yes); `always`: ask every time. */
  policy: 'always' | 'never';
  /** Null/absent answer = not approved. Without `ask`, `always` refuses (nobody can approve). */
  ask?(request: ToolApprovalRequest): Promise<ToolApprovalVerdict>;
}

export interface ToolContext {
  host: Host;
  /** Reads see staged edits; the editor tool writes only here. */
  overlay: StagedOverlay;
  signal?: AbortSignal;
  /** Absent: tools with side effects run (the caller already approved the run's actions). */
  approval?: ToolApprovalGate;
}

/** The normalised observation: what the model reads first. */
export interface Observation {
  /** One sentence of what happened. */
  summary: string;
  keyFacts: Record<string, string | number | boolean>;
  /** What the model can do next, e.g. `next_page: call X again with {"resultPage": 2}`. */
  affordances: string[];
}

export type ToolOutcome =
  | { ok: true; content: string; data?: unknown; observation?: Observation }
  | { ok: false; error: string; kind?: ToolErrorKind; retryAfterMs?: number };

export interface RetryPolicy {
  /** Extra attempts after the first (0 = no retry). */
  maxRetries: number;
  /** Full-jitter backoff: wait random(0, min(maxDelayMs, baseDelayMs * 2^attempt)). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Which kinds are retried; default RetryableServer and RateLimited. */
  retryOn?: readonly ToolErrorKind[];
}

export interface ToolDefinition<Input = unknown> {
  name: string;
  description: string;
  /** Validates (and coerces) the model's arguments. */
  input: ZodType<Input>;
  /** The model-facing JSON Schema when it is not derived from `input` (MCP tools bring their own). */
  inputJsonSchema?: Record<string, unknown>;
  /** Checks `data` of a successful outcome (or its content parsed as JSON); a mismatch is OutputSchemaMismatch. */
  output?: ZodType;
  /** True for tools that change nothing (they never need approval). */
  readonly: boolean;
  /**
   * True for tools that change something outside the staged overlay (MCP tools that write): these
   * follow the approval gate. Edits to the overlay are approved as diffs instead.
   */
  externalEffects?: boolean;
  /**
   * True for tools that run the repository's own code: a build or test (MSBuild targets, the tests),
   * or the C# engine, which evaluates the projects' MSBuild files. Such a tool is never advertised
   * as read-only to an MCP client, whatever it changes in the workspace.
   */
  runsRepositoryCode?: boolean;
  timeoutMs: number;
  retry?: RetryPolicy;
  /** Characters of content per page (default 100,000); longer results are paged, never cut silently. */
  maxPayloadChars?: number;
  /** True for a tool whose answer is never long (an agent's terminal tool): it is not offered `resultPage`. */
  unpaged?: boolean;
  /** Where it comes from, for traces and the README's naming rule. */
  source?: { kind: 'builtin' } | { kind: 'mcp'; server: string; tool: string };
  /** Anthropic-defined tools (the text editor) are declared by type, not by schema. */
  anthropicType?: 'text_editor_20250728';
  /**
   * Set on a stand-in for a tool whose server could not be reached when the agent's tools were
   * resolved. The registry calls it before each call and runs the definition it returns, with that
   * definition's own approval, time limit, retries and output check; it throws a ToolFailure while
   * the tool is still out of reach.
   */
  resolveDeferred?(): Promise<ToolDefinition>;
  execute(input: Input, context: ToolContext): Promise<ToolOutcome>;
}

/**
 * How a tool is declared to a model: a schema, or a provider-defined tool by its type. The llm port's
 * ModelToolDefinition has the same shape; it is repeated here so tools never import the model layer
 * (ARCHITECTURE.md, "Why each rule"), and TypeScript checks the two agree where an agent passes one as the other.
 */
export type ModelFacingTool =
  | { kind: 'custom'; name: string; description: string; inputSchema: Record<string, unknown> }
  | { kind: 'text_editor'; name: 'str_replace_based_edit_tool'; type: 'text_editor_20250728' };

/** The seed's name for the same thing. */
export type ToolSpec<Input = unknown> = ToolDefinition<Input>;
