// The ONE place a child process's environment is built: `dotnet build`/`dotnet test` (Node host and
// VS Code tasks), MCP stdio servers, and anything Ironbees starts later. The code those children run
// is not Ironbees' own (tests the model wrote, a repository's MSBuild targets, a third-party MCP
// server), so the model credentials Ironbees holds never reach them: every provider's key and token
// variables are dropped, plus the names the person adds (setting `ironbees.secretEnvironmentVariables`,
// or `IRONBEES_SECRET_ENV_VARS=NAME,PREFIX_*` for the CLI). A variable the caller sets explicitly (an
// MCP server's own `env` in its config) is passed: that is the person naming it on purpose.

import { registerSecret } from '../redact';

/** Dropped whatever their value: every variable whose name starts with one of these. */
export const CREDENTIAL_PREFIXES: readonly string[] = Object.freeze(['ANTHROPIC_']);

/** Dropped by exact name (compared upper-case, as Windows treats names). */
export const CREDENTIAL_VARIABLES: readonly string[] = Object.freeze([
  'CLAUDE_CODE_OAUTH_TOKEN',
  'OPENAI_API_KEY',
  'OPENAI_ADMIN_KEY',
  'AZURE_OPENAI_API_KEY',
  'AZURE_OPENAI_AD_TOKEN',
  'AZURE_API_KEY',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_SECURITY_TOKEN',
  'AWS_BEARER_TOKEN_BEDROCK',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AWS_CONTAINER_AUTHORIZATION_TOKEN',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'GOOGLE_API_KEY',
  'GEMINI_API_KEY',
  'VERTEX_API_KEY',
  // The OpenTelemetry collector's credentials (trace export): the headers carry its API key.
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'OTEL_EXPORTER_OTLP_METRICS_HEADERS',
  'OTEL_EXPORTER_OTLP_LOGS_HEADERS',
]);

/** The CLI's (and any Node host's) way to add names: comma- or space-separated, `PREFIX_*` allowed. */
export const SECRET_NAMES_ENV = 'IRONBEES_SECRET_ENV_VARS';

/** Names added by the person's settings (the extension sets them; the CLI uses SECRET_NAMES_ENV). */
let configuredNames: readonly string[] = [];

/** Replaces the names added by settings. Called by the extension at activation and on every settings change. */
export function setSecretEnvironmentVariables(names: readonly string[]): void {
  configuredNames = names.map((name) => name.trim()).filter(Boolean);
  registerCredentialValues(process.env);
}

/** Splits `A, B_*  C` into names. */
export function parseSecretNames(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[\s,;]+/)
    .map((name) => name.trim())
    .filter(Boolean);
}

/** Every extra name in force for `env`: the configured ones and those `env` itself lists. */
function extraNames(env: NodeJS.ProcessEnv): string[] {
  return [...configuredNames, ...parseSecretNames(env[SECRET_NAMES_ENV])];
}

/** True when `name` is a credential variable (a built-in one, or matched by an extra name or `PREFIX_*`). */
export function isCredentialVariable(name: string, extra: readonly string[] = []): boolean {
  const upper = name.toUpperCase();
  if (CREDENTIAL_PREFIXES.some((prefix) => upper.startsWith(prefix))) return true;
  if (CREDENTIAL_VARIABLES.includes(upper)) return true;
  return extra.some((pattern) => {
    const wanted = pattern.toUpperCase();
    return wanted.endsWith('*') ? upper.startsWith(wanted.slice(0, -1)) : upper === wanted;
  });
}

export interface ChildEnvironmentOptions {
  /** What the child would inherit; default this process's environment. */
  base?: NodeJS.ProcessEnv;
  /** Set after the credentials are dropped, so a name given here on purpose is passed. */
  set?: Readonly<Record<string, string | undefined>>;
}

/** The environment for a child process: `base` without credential variables, then `set` on top. */
export function childEnvironment(options: ChildEnvironmentOptions = {}): Record<string, string> {
  const base = options.base ?? process.env;
  // The names this process lists, and those a given base lists (a base is never a credential in itself).
  const extra = base === process.env ? extraNames(base) : [...extraNames(process.env), ...parseSecretNames(base[SECRET_NAMES_ENV])];
  registerCredentialValues(base, extra);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && !isCredentialVariable(name, extra)) env[name] = value;
  }
  for (const [name, value] of Object.entries(options.set ?? {})) {
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/**
 * The values of the credential variables in `env` become secrets the redactor masks everywhere,
 * whatever their shape (a proxy token does not look like `sk-ant-…`).
 */
export function registerCredentialValues(env: NodeJS.ProcessEnv, extra: readonly string[] = extraNames(env)): void {
  for (const [name, value] of Object.entries(env)) {
    if (value && isCredentialVariable(name, extra) && !/(_URL|_BASE|_REGION|_MODEL|_VERSION)$/i.test(name)) registerSecret(value);
  }
}
