// The engine's child environment: the one child environment of Ironbees (../../child-env.ts, no
// model credentials), plus the .NET settings a design-time MSBuild host wants.

import { childEnvironment } from '../../platform/child-env';

/** English messages (the model reads them), no banners, and no MSBuild nodes left behind by design-time builds. */
const ENGINE_DOTNET_ENV: Readonly<Record<string, string>> = {
  DOTNET_CLI_TELEMETRY_OPTOUT: '1',
  DOTNET_NOLOGO: '1',
  DOTNET_SKIP_FIRST_TIME_EXPERIENCE: '1',
  DOTNET_CLI_UI_LANGUAGE: 'en',
  MSBUILDDISABLENODEREUSE: '1',
};

export function engineEnv(parent: NodeJS.ProcessEnv = process.env, extra: Record<string, string> = {}): Record<string, string> {
  return childEnvironment({ base: parent, set: { ...ENGINE_DOTNET_ENV, ...extra } });
}
