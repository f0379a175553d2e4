// A baseline whose restore failed for want of a feed or a package is a set-up problem, not a starting
// point: nothing builds, so planning and coding against it would only spend iterations (and the
// model's tokens) on errors no edit of the code can fix. The run stops there with what to do.

import type { BuildResult, CompilationDiagnostic } from '../model';
import { EXTRA_NUGET_SOURCE_ENV } from './package-sources';

/**
 * NuGet's "cannot get the package" errors: NU1100 unresolvable, NU1101 no such id, NU1102 no such
 * version, NU1103 only prereleases, NU1301 a feed that cannot be read, NU1302 an insecure HTTP feed.
 */
export const FEED_ERROR_CODES: readonly string[] = Object.freeze(['NU1100', 'NU1101', 'NU1102', 'NU1103', 'NU1301', 'NU1302']);

/** What a person can do about a feed or package restore could not reach. */
export const RESTORE_ADVICE =
  'What to try: check that each feed named above is reachable from this machine (network, VPN, proxy, credentials) ' +
  'and has the package and version the project asks for; run `dotnet restore` in the workspace to see the same errors; ' +
  `or add a feed that has them with ${EXTRA_NUGET_SOURCE_ENV}=<folder or URL>. Then start the run again.`;

function line(error: CompilationDiagnostic): string {
  const where = error.filePath ?? error.project;
  return `- ${error.code}${where ? ` ${where}` : ''}: ${error.message}`;
}

/** The message that stops a run at its baseline, or null when the build did not fail on a feed or a package. */
export function restoreFailureMessage(build: BuildResult): string | null {
  if (build.success) return null;
  const feedErrors = build.errors.filter((error) => FEED_ERROR_CODES.includes(error.code));
  if (feedErrors.length === 0) return null;
  const lines = [...new Set(feedErrors.map(line))];
  return [
    'The baseline restore could not get the packages, so the run stopped before planning (no model was called):',
    ...lines,
    RESTORE_ADVICE,
  ].join('\n');
}
