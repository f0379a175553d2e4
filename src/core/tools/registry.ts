// The tool registry: which tools exist, how the model sees them, and how one call runs. `execute`
// is the single place where model input meets tool code (the adapter, ARCHITECTURE.md): it validates (and
// coerces) the input, asks for approval when a tool has side effects outside the overlay, runs the
// call under its time limit and retry policy, checks the output, and pages what is too long. Every
// failure comes back as a ToolOutcome with a taxonomy kind the model can act on.

import { z } from 'zod';
import type { ZodType } from 'zod';
import { AgentModeError, ToolNotFoundError, errorMessage } from '../errors';
import { cancelledOutcome, runWithPolicy } from './adapter';
import type { AttemptOptions } from './adapter';
import { kindOfError } from './failure';
import {
  DEFAULT_MAX_PAYLOAD_CHARS,
  PAGE_ARGUMENT,
  PAGE_ARGUMENT_SCHEMA,
  ResultPages,
  observationFor,
  pageAffordances,
  pageOf,
  splitPageArgument,
} from './paging';
import type { ModelFacingTool, ToolContext, ToolDefinition, ToolOutcome } from './types';

/** Tools that live elsewhere (MCP servers), resolved when an agent first needs them. */
export interface ExternalToolSource {
  /** True for the names this source answers, e.g. `mcp__<server>__<tool>`. */
  owns(name: string): boolean;
  /** Never rejects for a server problem: a tool that cannot be reached resolves to one that explains why. */
  resolve(names: readonly string[]): Promise<ToolDefinition[]>;
}

/** A call's input as parseInput left it: what the tool gets (`value`), and what paging needs. */
export interface ParsedToolInput {
  /** As the model sent it (a stand-in's real tool parses it again with its own schema). */
  readonly raw: unknown;
  /** The tool's arguments, without the page argument. */
  readonly args: unknown;
  readonly page: number;
  /** The arguments as the tool's schema parsed (and coerced) them. */
  readonly value: unknown;
}

export class ToolRegistry {
  private readonly tools = new Map<string, ToolDefinition>();
  private readonly pages = new ResultPages();
  private readonly sources: ExternalToolSource[] = [];

  constructor(private readonly attemptOptions: AttemptOptions = {}) {}

  register<Input>(def: ToolDefinition<Input>): this {
    if (this.tools.has(def.name))
      throw new AgentModeError(`Tool "${def.name}" is already registered`, 'DUPLICATE_TOOL', { name: def.name });
    // Stored without its input type: execute() validates with def.input before calling it.
    this.tools.set(def.name, def as ToolDefinition);
    return this;
  }

  addSource(source: ExternalToolSource): this {
    this.sources.push(source);
    return this;
  }

  hasSources(): boolean {
    return this.sources.length > 0;
  }

  get(name: string): ToolDefinition {
    const def = this.tools.get(name);
    if (!def) throw new ToolNotFoundError(name, this.names());
    return def;
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  names(): string[] {
    return [...this.tools.keys()].sort();
  }

  /** The tools an agent declared, in its order; an unknown name fails with the list of known ones. */
  forAgent(names: readonly string[]): ToolDefinition[] {
    return names.map((name) => this.get(name));
  }

  /** Like forAgent, but names an external source owns (MCP tools) are resolved through it, starting servers on first use. */
  async forAgentAsync(names: readonly string[], fallback?: ExternalToolSource): Promise<ToolDefinition[]> {
    const sources = this.sources.length > 0 ? this.sources : fallback ? [fallback] : [];
    const external = new Map<string, ToolDefinition>();
    for (const source of sources) {
      const owned = names.filter((name) => !this.tools.has(name) && source.owns(name) && !external.has(name));
      if (owned.length > 0) for (const def of await source.resolve(owned)) external.set(def.name, def);
    }
    return names.map((name) => external.get(name) ?? this.get(name));
  }

  toModelTools(defs: readonly ToolDefinition[]): ModelFacingTool[] {
    return defs.map((def): ModelFacingTool => {
      if (def.anthropicType === 'text_editor_20250728') {
        return { kind: 'text_editor', name: 'str_replace_based_edit_tool', type: 'text_editor_20250728' };
      }
      const schema = def.inputJsonSchema ?? inputJsonSchema(def.input);
      return { kind: 'custom', name: def.name, description: def.description, inputSchema: def.unpaged ? schema : withPageArgument(schema) };
    });
  }

  /**
   * Makes the JSON Schema of each named registered tool now (kept for the process), so the first
   * step that shows them to the model does not wait for it. Names not registered here (MCP tools,
   * resolved on first use) are skipped.
   */
  prepareModelTools(names: readonly string[]): void {
    for (const name of names) {
      const def = this.tools.get(name);
      if (!def) continue;
      if (!def.inputJsonSchema && def.anthropicType !== 'text_editor_20250728') inputJsonSchema(def.input);
    }
  }

  /**
   * Parses a call's input once, for the tool loop and for execute: the adapter's own `resultPage`
   * is split off, and the rest is validated (and coerced) by the tool's schema. Bad input is an
   * InvalidInput outcome that says how to fix it. A stand-in (MCP, resolved on first use) is checked
   * against its own schema here; the tool it resolves to checks the input against its real one.
   */
  parseInput(tool: ToolDefinition, rawInput: unknown): { ok: true; input: ParsedToolInput } | { ok: false; outcome: ToolOutcome } {
    const { input: args, page } = splitPageArgument(rawInput ?? {});
    // Without zod's compiled fast path: a tool's schema checks a handful of calls per run, and compiling
    // it (`new Function`) on its first call costs more than every later call saves.
    const parsed = tool.input.safeParse(args ?? {}, { jitless: true });
    if (!parsed.success)
      return { ok: false, outcome: { ok: false, kind: 'InvalidInput', error: describeInputError(tool.name, parsed.error) } };
    return { ok: true, input: { raw: rawInput, args, page, value: parsed.data } };
  }

  /** Runs one call. Never throws for a tool failure: bad input, errors, timeouts all come back as `{ ok: false, kind }`. */
  async execute(tool: ToolDefinition, rawInput: unknown, ctx: ToolContext): Promise<ToolOutcome> {
    if (tool.resolveDeferred) return this.executeDeferred(tool, tool.resolveDeferred.bind(tool), rawInput, ctx);
    const parsed = this.parseInput(tool, rawInput);
    return parsed.ok ? this.executeParsed(tool, parsed.input, ctx) : parsed.outcome;
  }

  /** Runs one call whose input parseInput accepted (the tool loop parses before it runs a turn's calls). */
  async executeParsed(tool: ToolDefinition, input: ParsedToolInput, ctx: ToolContext): Promise<ToolOutcome> {
    if (tool.resolveDeferred) return this.executeDeferred(tool, tool.resolveDeferred.bind(tool), input.raw, ctx);
    const { args, page, value } = input;
    if (ctx.signal?.aborted) return cancelledOutcome(tool.name, 'not run');

    const key = ResultPages.key(tool.name, value);
    const pageSize = tool.maxPayloadChars ?? DEFAULT_MAX_PAYLOAD_CHARS;
    if (page > 1) {
      const kept = this.pages.get(key);
      if (kept !== undefined) return this.paged(tool, args, kept, page, pageSize, undefined, undefined);
      if (!tool.readonly) {
        return {
          ok: false,
          kind: 'NotFound',
          error: `${tool.name}: that earlier result is no longer kept, and ${tool.name} has side effects so it is not run again for a page. Call it without ${PAGE_ARGUMENT} if you mean to run it again.`,
        };
      }
    }
    const refusal = await this.approvalRefusal(tool, value, ctx);
    if (refusal) return refusal;

    const outcome = await runWithPolicy(tool, value, ctx, this.attemptOptions);
    if (!outcome.ok) return outcome;
    if (outcome.content.length > pageSize) this.pages.set(key, outcome.content);
    return this.paged(tool, args, outcome.content, page, pageSize, outcome.data, outcome.observation);
  }

  /** A stand-in runs as the definition it stands for, so approval and limits are that tool's own, never the stand-in's guess. */
  private async executeDeferred(
    tool: ToolDefinition,
    resolve: () => Promise<ToolDefinition>,
    rawInput: unknown,
    ctx: ToolContext,
  ): Promise<ToolOutcome> {
    if (ctx.signal?.aborted) return cancelledOutcome(tool.name, 'not run');
    let real: ToolDefinition;
    try {
      real = await untilAborted(resolve(), ctx.signal);
    } catch (error) {
      if (ctx.signal?.aborted) return cancelledOutcome(tool.name, 'not run');
      return { ok: false, kind: kindOfError(error), error: errorMessage(error) };
    }
    if (real.resolveDeferred) return { ok: false, kind: 'ToolBug', error: `${tool.name} resolved to another stand-in; it was not run.` };
    return this.execute(real, rawInput, ctx);
  }

  private paged(
    tool: ToolDefinition,
    args: unknown,
    full: string,
    page: number,
    pageSize: number,
    data: unknown,
    given: Extract<ToolOutcome, { ok: true }>['observation'],
  ): ToolOutcome {
    const paged = pageOf(tool.name, args, full, page, pageSize);
    const observation = observationFor(full, paged, given, pageAffordances(paged));
    return { ok: true, content: paged.content, observation, ...(data !== undefined ? { data } : {}) };
  }

  private async approvalRefusal(tool: ToolDefinition, input: unknown, ctx: ToolContext): Promise<ToolOutcome | null> {
    if (tool.readonly || !tool.externalEffects || !ctx.approval || ctx.approval.policy === 'never') return null;
    if (!ctx.approval.ask) {
      return {
        ok: false,
        kind: 'Forbidden',
        error:
          `${tool.name} has side effects outside the workspace, so a person must approve each call (the run's approval setting), ` +
          'and no one can be asked here. It was not run. Do without it, or say in your answer that a person must approve it.',
      };
    }
    const verdict = await ctx.approval
      .ask({ tool: tool.name, input, description: tool.description })
      .catch(() => ({ approved: false, reason: 'the approval prompt failed' }));
    if (verdict.approved) return null;
    return {
      ok: false,
      kind: 'Forbidden',
      error: `${tool.name} was not approved${verdict.reason ? `: ${verdict.reason}` : ''}. Do without it or ask differently.`,
    };
  }
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function withPageArgument(schema: Record<string, unknown>): Record<string, unknown> {
  if (schema.type !== 'object') return schema;
  const properties = { ...((schema.properties as Record<string, unknown> | undefined) ?? {}) };
  if (!(PAGE_ARGUMENT in properties)) properties[PAGE_ARGUMENT] = PAGE_ARGUMENT_SCHEMA;
  return { ...schema, properties };
}

/** Each schema's JSON Schema, made once per process: every step's tool loop shows the model the same tools. */
const JSON_SCHEMAS = new WeakMap<ZodType, Record<string, unknown>>();

/**
 * The model's view of a zod schema: input-side JSON Schema, without the noise that costs tokens.
 * Shared by every caller, so frozen: whoever needs another shape copies it (as the providers do).
 */
export function inputJsonSchema(schema: ZodType): Record<string, unknown> {
  const known = JSON_SCHEMAS.get(schema);
  if (known) return known;
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  const made = deepFreeze(stripSafeIntegerBounds(json)) as Record<string, unknown>;
  JSON_SCHEMAS.set(schema, made);
  return made;
}

/** Whether `schema`'s JSON Schema is already made (for tests of when it is made). */
export function jsonSchemaMade(schema: ZodType): boolean {
  return JSON_SCHEMAS.has(schema);
}

function deepFreeze<T>(node: T): T {
  if (node !== null && typeof node === 'object') {
    for (const value of Object.values(node)) deepFreeze(value);
    Object.freeze(node);
  }
  return node;
}

function stripSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripSafeIntegerBounds);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
    out[key] = stripSafeIntegerBounds(value);
  }
  return out;
}

/** "path.to.field: what was wrong" for each issue, so the model can fix exactly that argument. */
export function describeInputError(toolName: string, error: z.ZodError): string {
  const issues = error.issues.slice(0, 8).map((issue) => {
    const where = issue.path.length ? issue.path.map(String).join('.') : '(input)';
    return `- ${where}: ${issue.message}`;
  });
  const more = error.issues.length > 8 ? `\n- (${error.issues.length - 8} more)` : '';
  return `Invalid arguments for ${toolName}:\n${issues.join('\n')}${more}\nFix these arguments and call ${toolName} again.`;
}
