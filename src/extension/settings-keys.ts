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
  agentsFolder: 'agentsFolder',
  demoModel: 'demoModel',
  anthropicBaseUrl: 'anthropicBaseUrl',
  mcpServers: 'mcpServers',
  secretEnvironmentVariables: 'secretEnvironmentVariables',
  otlpEndpoint: 'telemetry.otlpEndpoint',
  sandbox: 'sandbox',
} as const;

/** Only the person's user (or remote machine) settings set these; a workspace value is ignored. */
export const PERSON_ONLY_SETTINGS: readonly string[] = [SettingKeys.anthropicBaseUrl, SettingKeys.planApproval, SettingKeys.diffApproval, SettingKeys.secretEnvironmentVariables, SettingKeys.otlpEndpoint, SettingKeys.sandbox];
