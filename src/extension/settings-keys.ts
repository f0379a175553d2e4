// Every setting key in one place (vscode-pull-request-github's `settingKeys.ts`), free of `vscode`
// so the manifest test can check them against package.json.

export const SETTINGS_SECTION = 'ironbees';

export const SettingKeys = {
  model: 'model',
  maxIterations: 'maxIterations',
  planApproval: 'approval.plan',
  diffApproval: 'approval.diffs',
  buildSeconds: 'timeouts.buildSeconds',
  testSeconds: 'timeouts.testSeconds',
  agentSeconds: 'timeouts.agentSeconds',
  agentsFolder: 'agentsFolder',
  demoModel: 'demoModel',
  anthropicBaseUrl: 'anthropicBaseUrl',
  mcpServers: 'mcpServers',
  secretEnvironmentVariables: 'secretEnvironmentVariables',
  otlpEndpoint: 'telemetry.otlpEndpoint',
  sandbox: 'sandbox',
  review: 'review',
  reviewThreshold: 'reviewThreshold',
  parallel: 'parallel',
  notifyWebhook: 'notify.webhook',
} as const;

/**
 * Only the person's user (or remote machine) settings set these; a workspace value is ignored. They
 * choose where model traffic goes, what needs approval, what runs (MCP servers, agents and their
 * prompts), what is read from outside the workspace (context files), how long a model works and
 * where notifications about runs are posted.
 */
export const PERSON_ONLY_SETTINGS: readonly string[] = [
  SettingKeys.anthropicBaseUrl,
  SettingKeys.planApproval,
  SettingKeys.diffApproval,
  SettingKeys.secretEnvironmentVariables,
  SettingKeys.otlpEndpoint,
  SettingKeys.model,
  SettingKeys.maxIterations,
  SettingKeys.agentsFolder,
  SettingKeys.mcpServers,
  'contextFiles',
  'provider',
  'openaiBaseUrl',
  'fallback.provider',
  'fallback.model',
  SettingKeys.sandbox,
  SettingKeys.review,
  SettingKeys.reviewThreshold,
  SettingKeys.notifyWebhook,
];
