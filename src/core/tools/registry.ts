// The tool registry: which tools exist, how the model sees them, and how one call runs. `execute`
// is the single place where model input meets tool code: it validates (and coerces) the input,
// enforces the time limit, and turns every failure into a ToolOutcome the model can act on.

import { z } from 'zod';
import type { ZodType } from 'zod';
import { AgentModeError, errorMessage, ToolNotFoundError } from '../errors';
import type { ModelToolDefinition } from '../llm/port';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';

/** Results beyond this are cut: one tool result must not fill the model's context. */
const MAX_RESULT_CHARS = 100_000;

export class ToolRegistry {
  private readonly tools = new Map<string, ToolDefinition>();

  register<Input>(def: ToolDefinition<Input>): this {
    if (this.tools.has(def.name)) throw new AgentModeError(`Tool "${def.name}" is already registered`, 'DUPLICATE_TOOL', { name: def.name });
    // Stored without its input type: execute() validates with def.input before calling it.
    this.tools.set(def.name, def as ToolDefinition);
    return this;
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

  toModelTools(defs: readonly ToolDefinition[]): ModelToolDefinition[] {
    return defs.map((def): ModelToolDefinition => {
      if (def.anthropicType === 'text_editor_20250728') {
        return { kind: 'text_editor', name: 'str_replace_based_edit_tool', type: 'text_editor_20250728' };
      }
      return { kind: 'custom', name: def.name, description: def.description, inputSchema: inputJsonSchema(def.input) };
    });
  }

  /** Runs one call. Never throws for a tool failure: bad input, errors, timeouts all come back as `{ ok: false }`. */
  async execute(tool: ToolDefinition, rawInput: unknown, ctx: ToolContext): Promise<ToolOutcome> {
    const parsed = tool.input.safeParse(rawInput ?? {});
    if (!parsed.success) return { ok: false, error: describeInputError(tool.name, parsed.error) };
    if (ctx.signal?.aborted) return { ok: false, error: `${tool.name} was not run: the run was cancelled.` };

    const controller = new AbortController();
    const onOuterAbort = (): void => controller.abort(ctx.signal?.reason);
    ctx.signal?.addEventListener('abort', onOuterAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<ToolOutcome>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new Error('timeout'));
        resolve({
          ok: false,
          error: `${tool.name} timed out after ${formatDuration(tool.timeoutMs)}; ask for less at once (a narrower path, pattern or query).`,
        });
      }, tool.timeoutMs);
    });
    const cancelled = new Promise<ToolOutcome>((resolve) => {
      controller.signal.addEventListener('abort', () => {
        if (ctx.signal?.aborted) resolve({ ok: false, error: `${tool.name} was stopped: the run was cancelled.` });
      });
    });
    try {
      const run = tool.execute(parsed.data, { ...ctx, signal: controller.signal }).then(normaliseOutcome, (error: unknown) => failure(tool.name, error, ctx));
      return await Promise.race([run, timedOut, cancelled]);
    } finally {
      clearTimeout(timer);
      ctx.signal?.removeEventListener('abort', onOuterAbort);
    }
  }
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** The model's view of a zod schema: input-side JSON Schema, without the noise that costs tokens. */
export function inputJsonSchema(schema: ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return stripSafeIntegerBounds(json) as Record<string, unknown>;
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

function normaliseOutcome(outcome: ToolOutcome): ToolOutcome {
  if (!outcome.ok) return outcome;
  const content = typeof outcome.content === 'string' ? outcome.content : String(outcome.content);
  if (content.length <= MAX_RESULT_CHARS) return { ok: true, content };
  return {
    ok: true,
    content: `${content.slice(0, MAX_RESULT_CHARS)}\n[Result cut at ${MAX_RESULT_CHARS} characters; ask for less, e.g. a line range or a narrower search.]`,
  };
}

/** Expected failures (bad paths, unsupported files) carry their own advice; anything else is a bug, logged with its stack. */
function failure(toolName: string, error: unknown, ctx: ToolContext): ToolOutcome {
  if (error instanceof AgentModeError) return { ok: false, error: error.message };
  ctx.host.logger.error(`tool ${toolName} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return { ok: false, error: `${toolName} failed: ${errorMessage(error)}` };
}
