// The one place the engine's child process gets its environment. It needs the .NET SDK's
// variables (DOTNET_ROOT, PATH, MSBuild settings) and nothing that opens a door elsewhere: names
// that look like credentials are left out, as for every child of Ironbees. (The centralised child
// env of issue 9 replaces the filter here when it lands; this is the only call site.)

const CREDENTIAL_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;

/** English messages (the model reads them), no banners, and no MSBuild nodes left behind by design-time builds. */
const ENGINE_DOTNET_ENV: Readonly<Record<string, string>> = {
  DOTNET_CLI_TELEMETRY_OPTOUT: '1',
  DOTNET_NOLOGO: '1',
  DOTNET_SKIP_FIRST_TIME_EXPERIENCE: '1',
  DOTNET_CLI_UI_LANGUAGE: 'en',
  MSBUILDDISABLENODEREUSE: '1',
};

export function engineEnv(parent: NodeJS.ProcessEnv = process.env, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || CREDENTIAL_NAME.test(name)) continue;
    env[name] = value;
  }
  return { ...env, ...ENGINE_DOTNET_ENV, ...extra };
}
