// What an OpenAI model family accepts, kept in one place. The reasoning models (gpt-5*, o1*, o3*,
// o4*) refuse any `temperature` but the default (HTTP 400 "Only the default (1) value is
// supported") and refuse `max_tokens` in favour of `max_completion_tokens`, on OpenAI's API and on
// Azure's alike. A name may carry a router's vendor prefix ("openai/gpt-5-mini").

const REASONING_MODEL = /^(?:gpt-5(?![0-9])|o[134](?![0-9a-z]))/;

export function isOpenAIReasoningModel(model: string): boolean {
  const name = model.trim().toLowerCase();
  return REASONING_MODEL.test(name.slice(name.lastIndexOf('/') + 1));
}

export interface OpenAISamplingParameters {
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
}

/**
 * The output limit and temperature to send for `model`. `officialApi`: the server is OpenAI's own,
 * which wants `max_completion_tokens` for every current model; other servers know `max_tokens`.
 * `dropped` is set when the asked temperature is not sent (the model takes only its default).
 */
export function samplingParameters(
  model: string,
  ask: { maxTokens: number; temperature?: number; officialApi: boolean },
): { params: OpenAISamplingParameters; dropped?: { temperature: number } } {
  const reasoning = isOpenAIReasoningModel(model);
  const params: OpenAISamplingParameters =
    reasoning || ask.officialApi ? { max_completion_tokens: ask.maxTokens } : { max_tokens: ask.maxTokens };
  if (ask.temperature === undefined) return { params };
  if (reasoning) return { params, dropped: { temperature: ask.temperature } };
  return { params: { ...params, temperature: ask.temperature } };
}
