// Package feeds a person adds to every restore Ironbees runs, without editing the repository's
// nuget.config: a machine's offline folder, a CI mirror. NuGet itself has no environment variable
// for this; MSBuild reads its environment as properties, and NuGet's restore adds the property
// `RestoreAdditionalProjectSources` to the feeds the nuget.config files list (it never replaces them).

/** Feeds (folders or URLs, `;`-separated) added to every restore Ironbees runs. */
export const EXTRA_NUGET_SOURCE_ENV = 'IRONBEES_NUGET_SOURCE';

/** The feeds `IRONBEES_NUGET_SOURCE` lists, in order; none when it is unset or blank. */
export function extraPackageSources(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env[EXTRA_NUGET_SOURCE_ENV] ?? '')
    .split(';')
    .map((source) => source.trim())
    .filter(Boolean);
}

/** The variables that give a dotnet child those feeds, after any it already adds itself. */
export function extraSourcesEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const extra = extraPackageSources(env);
  if (extra.length === 0) return {};
  const already = (env.RestoreAdditionalProjectSources ?? '')
    .split(';')
    .map((source) => source.trim())
    .filter(Boolean);
  return { RestoreAdditionalProjectSources: [...already, ...extra.filter((source) => !already.includes(source))].join(';') };
}
