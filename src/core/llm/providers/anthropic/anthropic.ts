// The model port, implemented with the official Anthropic SDK. We stream (`messages.stream` then
// `finalMessage()`) rather than wait on one long request: a long answer with a large max_tokens
// keeps the connection busy, and the SDK refuses non-streaming calls it expects to run past its
// timeout. Retries on 429/529/5xx and connection errors are the SDK's own (honouring retry-after).

import { Anthropic } from '@anthropic-ai/sdk';
import type { Logger } from '../../../host';
import { redact, registerSecret } from '../../../redact';
import type { ModelClient, ModelRequest, ModelResponse } from '../../port';
import { fromAnthropicMessage, toAnthropicMessages, toAnthropicSystem, toAnthropicTools } from './anthropic-mapping';
import { mapModelError } from './anthropic-errors';
import { usageWithCost } from './pricing';
import { DEFAULT_STREAM_IDLE_MS, watchStream } from '../stream-watchdog';
import type { StreamWatchdog } from '../stream-watchdog';

export { DEFAULT_MODEL } from '../../defaults';
export const DEFAULT_MAX_RETRIES = 4;

export interface AnthropicClientOptions {
  /** Defaults to ANTHROPIC_API_KEY (read by the SDK). */
  apiKey?: string;
  /** Defaults to ANTHROPIC_BASE_URL (read by the SDK), else the public API. */
  baseURL?: string;
  /** Retries of one call on 429, 529, 5xx and connection errors. Default 4. */
  maxRetries?: number;
  /** Time limit of one HTTP attempt, in milliseconds (the SDK's default when absent). */
  timeoutMs?: number;
  /** Where the SDK's own log lines and price warnings go; stderr when absent, so stdout stays clean for --json. */
  logger?: Logger;
  /** Adds cache breakpoints on the newest message and on the previous request's last one, so each turn reuses the last (default true). */
  cacheConversation?: boolean;
}

export class AnthropicModelClient implements ModelClient {
  private readonly client: Anthropic;
  private readonly cacheConversation: boolean;
  private readonly warn: (message: string) => void;
  private readonly baseURL: string;
  private readonly streamIdleMs: number;

  constructor(options: AnthropicClientOptions = {}) {
    const logger = options.logger ?? stderrLogger;
    // Masked from here on in every log, trace and message, whatever its shape.
    registerSecret(options.apiKey);
    this.warn = (message) => logger.warn(message);
    this.cacheConversation = options.cacheConversation ?? true;
    this.streamIdleMs = options.timeoutMs ?? DEFAULT_STREAM_IDLE_MS;
    this.client = new Anthropic({
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
      ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      logger: toSdkLogger(logger),
    });
    this.baseURL = this.client.baseURL;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const tools = toAnthropicTools(request.tools);
    const system = toAnthropicSystem(request.system);
    let watchdog: StreamWatchdog | undefined;
    try {
      const stream = this.client.messages.stream(
        {
          model: request.model,
          max_tokens: request.maxTokens,
          messages: toAnthropicMessages(request.messages, this.cacheConversation),
          ...(system ? { system } : {}),
          ...(tools.length > 0 ? { tools, tool_choice: { type: request.toolChoice ?? 'auto' } } : {}),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        },
        { signal: request.signal },
      );
      const onText = request.onText;
      if (onText) stream.on('text', (delta) => onText(delta));
      const onProgress = request.onProgress;
      if (onProgress) stream.on('connect', () => onProgress()).on('streamEvent', () => onProgress());
      watchdog = watchStream(stream, this.streamIdleMs, (arm) => stream.on('connect', arm).on('streamEvent', arm));
      const mapped = fromAnthropicMessage(await stream.finalMessage());
      return {
        content: mapped.content,
        stopReason: mapped.stopReason,
        model: mapped.model,
        usage: usageWithCost(mapped.model || request.model, mapped.tokens, this.warn),
      };
    } catch (error) {
      if (watchdog?.stalled) throw watchdog.error(error);
      throw mapModelError(error, { model: request.model, baseURL: this.baseURL });
    } finally {
      watchdog?.stop();
    }
  }
}

const stderrLogger: Logger = {
  debug: (message) => process.stderr.write(`${redact(message)}\n`),
  info: (message) => process.stderr.write(`${redact(message)}\n`),
  warn: (message) => process.stderr.write(`warning: ${redact(message)}\n`),
  error: (message) => process.stderr.write(`error: ${redact(message)}\n`),
};

type SdkLogFn = (message: string, ...rest: unknown[]) => void;

function toSdkLogger(logger: Logger): { error: SdkLogFn; warn: SdkLogFn; info: SdkLogFn; debug: SdkLogFn } {
  const join = (message: string, rest: unknown[]): string =>
    [message, ...rest.map((item) => (typeof item === 'string' ? item : safeJson(item)))].join(' ');
  return {
    error: (message, ...rest) => logger.error(`anthropic: ${join(message, rest)}`),
    warn: (message, ...rest) => logger.warn(`anthropic: ${join(message, rest)}`),
    info: (message, ...rest) => logger.info(`anthropic: ${join(message, rest)}`),
    debug: (message, ...rest) => logger.debug(`anthropic: ${join(message, rest)}`),
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
