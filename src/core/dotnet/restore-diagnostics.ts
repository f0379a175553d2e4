// Makes NuGet restore errors say what a person needs to act on: which feed (by its nuget.config name
// and address) and which package. NU1301 ("Unable to load the service index for source <url>") names
// only an address; NU1101/NU1102 name the package and the feed's key but not where that feed is.

import * as path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { Host } from '../host';
import type { CompilationDiagnostic } from '../model';
import { EXTRA_NUGET_SOURCE_ENV, extraPackageSources } from './package-sources';

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  isArray: (name) => ['add', 'ItemGroup', 'PackageReference', 'PackageVersion'].includes(name),
});

type Node = Record<string, unknown>;

function nodes(value: unknown): Node[] {
  if (Array.isArray(value)) return value.filter((item): item is Node => typeof item === 'object' && item !== null);
  return typeof value === 'object' && value !== null ? [value as Node] : [];
}

function attr(node: Node, name: string): string {
  const value = node[`@${name}`];
  return typeof value === 'string' ? value.trim() : '';
}

export interface PackageFeed {
  key: string;
  source: string;
}

/** The `<packageSources>` of one nuget.config (after `<clear/>`, as listed). */
export function readPackageSources(content: string): PackageFeed[] {
  try {
    const sources = (xml.parse(content.replace(/^\uFEFF/, '')) as Node).configuration as Node | undefined;
    return nodes((sources?.packageSources as Node | undefined)?.add).map((add) => ({ key: attr(add, 'key'), source: attr(add, 'value') }));
  } catch {
    return [];
  }
}

/** `Include` (and version, when the file gives one) of each PackageReference of a project file. */
export function readPackageReferences(content: string): string[] {
  try {
    const project = (xml.parse(content.replace(/^\uFEFF/, '')) as Node).Project as Node | undefined;
    return nodes(project?.ItemGroup).flatMap((group) =>
      nodes(group.PackageReference).map((reference) => {
        const version = attr(reference, 'VersionOverride') || attr(reference, 'Version');
        return version ? `${attr(reference, 'Include')} ${version}` : attr(reference, 'Include');
      }),
    );
  } catch {
    return [];
  }
}

async function readText(host: Host, absPath: string): Promise<string | null> {
  const bytes = await host.fs.readFile(absPath);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

/** The feeds of the nuget.config files from the project's folder up to the workspace root. */
async function feedsFor(host: Host, projectDir: string): Promise<PackageFeed[]> {
  const feeds: PackageFeed[] = [];
  for (let dir = projectDir; ; dir = path.dirname(dir)) {
    for (const name of ['nuget.config', 'NuGet.Config', 'NuGet.config']) {
      const content = await readText(host, path.join(dir, name));
      if (content !== null) {
        // A folder feed is relative to its nuget.config; NuGet reports it absolute.
        const absolute = (source: string): string =>
          /^[a-z][a-z0-9+.-]*:\/\//i.test(source) || path.isAbsolute(source) ? source : path.resolve(dir, source);
        feeds.push(...readPackageSources(content).map((feed) => ({ ...feed, source: absolute(feed.source) })));
        break;
      }
    }
    const relative = path.relative(host.workspaceRoot, dir);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative) || dir === path.dirname(dir)) break;
  }
  // The feeds the person added for every restore come after the repository's own.
  feeds.push(...extraPackageSources().map((source) => ({ key: EXTRA_NUGET_SOURCE_ENV, source })));
  return feeds;
}

const UNREACHABLE_SOURCE = /(?:service index for source|local source)\s+'?(?<source>[^'\s]+?)'?[.:]?(?:\s|$)/;

/** Restore errors rewritten to name the feed (key and address) and the packages concerned; others as they are. */
export async function explainRestoreErrors(host: Host, errors: readonly CompilationDiagnostic[]): Promise<CompilationDiagnostic[]> {
  if (!errors.some((error) => /^NU1(10[0-3]|30[01])$/.test(error.code))) return [...errors];
  const explained: CompilationDiagnostic[] = [];
  for (const error of errors) {
    const projectFile = [error.filePath, error.project].find((file) => file && /proj$/i.test(file));
    if (!/^NU1(10[0-3]|30[01])$/.test(error.code) || !projectFile) {
      explained.push(error);
      continue;
    }
    const absProject = path.resolve(host.workspaceRoot, projectFile);
    const feeds = await feedsFor(host, path.dirname(absProject));
    const name = path.basename(projectFile);
    let message = error.message;
    const unreachable = UNREACHABLE_SOURCE.exec(message)?.groups?.source;
    if (unreachable !== undefined) {
      const feed = feeds.find((candidate) => candidate.source.replace(/\/$/, '') === unreachable.replace(/\/$/, ''));
      const packages = readPackageReferences((await readText(host, absProject)) ?? '');
      const feedName = feed ? `"${feed.key}" (${feed.source})` : unreachable;
      const said = /[.!?]$/.test(message) ? message : `${message}.`;
      message =
        `Restore of ${name} could not use the package feed ${feedName}: ${said}` +
        (packages.length > 0 ? ` Packages ${name} restores: ${packages.join(', ')}.` : '');
    } else {
      const named = feeds.filter((feed) =>
        new RegExp(`(^|[\\s,:])${feed.key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([\\s,.]|$)`).test(message),
      );
      if (named.length > 0) message = `${message} (feeds: ${named.map((feed) => `${feed.key} = ${feed.source}`).join(', ')})`;
    }
    explained.push({ ...error, message });
  }
  return explained;
}
