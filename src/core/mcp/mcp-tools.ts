// An MCP server's tool as a ToolDefinition, so the same adapter (validation, time limit, retries,
// output check, paging, approval) runs it as it runs a built-in tool.

import { z } from 'zod';
import type { ZodType } from 'zod';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { guessKindFromMessage, retryAfterFromMessage } from '../tools/failure';
import type { RetryPolicy, ToolDefinition, ToolOutcome } from '../tools/types';
import type { McpConnection } from './connection';
import { mcpToolName } from '../tools/mcp-naming';

/** Read-only tools may be retried after a crash or a 5xx: running them twice changes nothing. */
const READONLY_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 200, maxDelayMs: 2_000 };

export function mcpToolDefinition(connection: McpConnection, tool: Tool): ToolDefinition<Record<string, unknown>> {
  const schema = tool.inputSchema as Record<string, unknown>;
  const readonly = tool.annotations?.readOnlyHint === true || (connection.config.readonlyTools ?? []).includes(tool.name);
  const output = tool.outputSchema ? schemaFromJson(tool.outputSchema as Record<string, unknown>) : undefined;
  return {
    name: mcpToolName(connection.name, tool.name),
    description: `${tool.description ?? tool.title ?? tool.name} (from the MCP server "${connection.name}")`,
    input: inputSchemaFor(schema),
    inputJsonSchema: schema,
    ...(output ? { output } : {}),
    readonly,
    externalEffects: !readonly,
    timeoutMs: connection.callTimeoutMs,
    ...(readonly ? { retry: READONLY_RETRY } : {}),
    source: { kind: 'mcp', server: connection.name, tool: tool.name },
    async execute(input, context): Promise<ToolOutcome> {
      const result = await connection.call(tool.name, input, context.signal);
      return outcomeOf(result);
    },
  };
}

export function outcomeOf(result: CallToolResult): ToolOutcome {
  const text = renderContent(result);
  if (result.isError) {
    const kind = guessKindFromMessage(text);
    // MCP has no header for it, so a server's "retry after N s" in the text is the only hint there is.
    const retryAfterMs = kind === 'RateLimited' ? retryAfterFromMessage(text) : undefined;
    return {
      ok: false,
      kind,
      error: text || 'the MCP tool reported an error without a message',
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
  const data = result.structuredContent;
  return {
    ok: true,
    content: text || (data !== undefined ? JSON.stringify(data, null, 1) : '(no content)'),
    ...(data !== undefined ? { data } : {}),
  };
}

function renderContent(result: CallToolResult): string {
  return (result.content ?? [])
    .map((block) => {
      switch (block.type) {
        case 'text':
          return block.text;
        case 'image':
        case 'audio':
          return `[${block.type}: ${block.mimeType}, ${block.data.length} base64 characters]`;
        case 'resource':
          return 'text' in block.resource ? String(block.resource.text) : `[resource ${block.resource.uri}]`;
        case 'resource_link':
          return `[resource link ${block.uri}${block.name ? ` (${block.name})` : ''}]`;
        default:
          return '';
      }
    })
    .filter(Boolean)
    .join('\n');
}

/** The server's JSON Schema as zod, with the coercions models need (numbers and booleans sent as strings). */
function inputSchemaFor(schema: Record<string, unknown>): ZodType<Record<string, unknown>> {
  const strict = schemaFromJson(schema) ?? z.record(z.string(), z.unknown());
  return z.preprocess((value) => coerceToSchema(value, schema), strict) as unknown as ZodType<Record<string, unknown>>;
}

function schemaFromJson(schema: Record<string, unknown>): ZodType | undefined {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    // A schema zod cannot read is left to the server to check.
    return undefined;
  }
}

function coerceToSchema(value: unknown, schema: Record<string, unknown> | undefined): unknown {
  if (!schema) return value;
  const type = schema.type;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if ((type === 'number' || type === 'integer') && trimmed !== '' && Number.isFinite(Number(trimmed))) return Number(trimmed);
    if (type === 'boolean' && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
    if ((type === 'array' || type === 'object') && /^[[{]/.test(trimmed)) {
      try {
        return coerceToSchema(JSON.parse(trimmed), schema);
      } catch {
        return value;
      }
    }
    return value;
  }
  if (Array.isArray(value) && type === 'array') {
    return value.map((item) => coerceToSchema(item, schema.items as Record<string, unknown> | undefined));
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = coerceToSchema(item, properties[key]);
    return out;
  }
  return value;
}
