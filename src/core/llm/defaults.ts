// Defaults that the agents and the CLI share, kept apart from anthropic.ts so reading them does
// not load the SDK.

/**
 * The model used when neither agent.yaml nor --model names one. Not claude-sonnet-4-5: the SDK
 * flags it as deprecated and prints a warning on every call.
 */
export const DEFAULT_MODEL = 'claude-sonnet-4-6';
