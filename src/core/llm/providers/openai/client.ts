// The model port over any OpenAI-compatible Chat Completions endpoint (OpenAI, Azure OpenAI's v1
// endpoint, OpenRouter, Ollama, LM Studio, vLLM), through the official `openai` SDK. Streams, as
// the Anthropic client does, and asks for usage in the last chunk (`stream_options.include_usage`).
// Retries on 408/409/429/5xx and connection errors are the SDK's own (honouring retry-after).

import OpenAI from 'openai';
import type { Logger } from '../../../host';
import type { ModelClient, ModelRequest, ModelResponse } from '../../port';
import { usageWithCost } from '../anthropic/pricing';
import { fromOpenAICompletion, toOpenAIMessages, toOpenAIToolChoice, toOpenAITools } from './mapping';
import { mapOpenAIError } from './errors';
import { samplingParameters } from './model-family';
import { DEFAULT_STREAM_IDLE_MS, watchStream } from '../stream-watchdog';
import type { StreamWatchdog } from '../stream-watchdog';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_MAX_RETRIES = 4;
export { NO_KEY_PLACEHOLDER } from '../provider-settings';

export interface OpenAIClientOptions {
  apiKey: string;
  baseURL?: string;
  maxRetries?: number;
  timeoutMs?: number;
  logger?: Logger;
}

export class OpenAIModelClient implements ModelClient {
  private readonly client: OpenAI;
  private readonly warn: (message: string) => void;
  readonly baseURL: string;
  /** OpenAI's own API refuses `max_tokens` for its newer models; other servers know only `max_tokens` (model-family.ts). */
  private readonly useMaxCompletionTokens: boolean;
  private readonly streamIdleMs: number;
  /** Models already warned about a temperature they do not take (once per model). */
  private readonly warnedTemperature = new Set<string>();

  constructor(options: OpenAIClientOptions) {
    this.streamIdleMs = options.timeoutMs ?? DEFAULT_STREAM_IDLE_MS;
    const logger = options.logger;
    this.warn = (message) => (logger ? logger.warn(message) : process.stderr.write(`warning: ${message}\n`));
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseURL ?? OPENAI_DEFAULT_BASE_URL,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
      ...(logger
        ? {
            logger: {
              error: (m: string) => logger.error(`openai: ${m}`),
              warn: (m: string) => logger.warn(`openai: ${m}`),
              info: (m: string) => logger.info(`openai: ${m}`),
              debug: (m: string) => logger.debug(`openai: ${m}`),
            },
          }
        : {}),
    });
    this.baseURL = this.client.baseURL;
    this.useMaxCompletionTokens = /^https:\/\/api\.openai\.com\//.test(this.baseURL);
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const tools = toOpenAITools(request.tools);
    const sampling = samplingParameters(request.model, {
      maxTokens: request.maxTokens,
      temperature: request.temperature,
      officialApi: this.useMaxCompletionTokens,
    });
    if (sampling.dropped && !this.warnedTemperature.has(request.model)) {
      this.warnedTemperature.add(request.model);
      this.warn(
        `${request.model} takes only its default temperature; the configured temperature ${sampling.dropped.temperature} is not sent.`,
      );
    }
    let watchdog: StreamWatchdog | undefined;
    try {
      const stream = this.client.chat.completions.stream(
        {
          model: request.model,
          messages: toOpenAIMessages(request.system, request.messages),
          stream: true,
          stream_options: { include_usage: true },
          ...sampling.params,
          ...(tools.length > 0 ? { tools, tool_choice: toOpenAIToolChoice(request.toolChoice) } : {}),
        },
        { signal: request.signal },
      );
      const onText = request.onText;
      if (onText) stream.on('content.delta', ({ delta }) => onText(delta));
      const onProgress = request.onProgress;
      if (onProgress) stream.on('connect', () => onProgress()).on('chunk', () => onProgress());
      watchdog = watchStream(stream, this.streamIdleMs, (arm) => stream.on('connect', arm).on('chunk', arm));
      const mapped = fromOpenAICompletion(await stream.finalChatCompletion());
      return {
        content: mapped.content,
        stopReason: mapped.stopReason,
        model: mapped.model || request.model,
        usage: usageWithCost(mapped.model || request.model, mapped.tokens, this.warn),
      };
    } catch (error) {
      if (watchdog?.stalled) throw watchdog.error(error);
      throw mapOpenAIError(error, { model: request.model, baseURL: this.baseURL });
    } finally {
      watchdog?.stop();
    }
  }
}
