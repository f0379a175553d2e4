// The trust gate (contracts.md, "Trust"): what a workspace itself defines that runs or reaches
// something — its agents (`.ironbees/agents/`: their prompts and models), its MCP servers
// (`.ironbees/mcp.json`: processes started, URLs contacted) — is used only once a person trusted the
// folder: `--trust-workspace` on the command line, "yes" to the question asked on a terminal
// (remembered per folder, by its real path, in the user's cache folder, outside every workspace), or
// in the editor its workspace trust plus an Ironbees confirmation. Without it each item is ignored
// with one line naming it and the built-in agents run. A workspace that defines none is never asked
// about. Every face (CLI `run`/`resume`, `ironbees mcp`, the editor, and those to come) decides here.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { userCacheDir } from '../platform/user-cache';
import { TOOLING_FOLDER } from '../workspace/paths';

type Env = Readonly<Record<string, string | undefined>>;

// The same paths as agents/loader.ts and mcp/config.ts name; not imported from there, because the
// editor asks about trust at activation and neither the agent loader nor zod belongs in that bundle.
const WORKSPACE_AGENTS_DIR = path.join(TOOLING_FOLDER, 'agents');
const WORKSPACE_MCP_CONFIG = path.join(TOOLING_FOLDER, 'mcp.json');

/** The command-line flag that trusts the workspace for one command. */
export const TRUST_WORKSPACE_FLAG = '--trust-workspace';

/** One thing the workspace defines that would run or reach something: its path and what it is. */
export interface WorkspaceDefinition {
  /** Workspace-relative, forward slashes. */
  path: string;
  what: string;
}

/**
 * What the workspace defines that only a trusted workspace may use, looked up without following a
 * link and without reading a file's content (nothing of the repository is run or parsed to ask).
 */
export function workspaceDefinitions(workspaceRoot: string): WorkspaceDefinition[] {
  const found: WorkspaceDefinition[] = [];
  const agentsDir = path.join(workspaceRoot, WORKSPACE_AGENTS_DIR);
  const agentsRel = toRel(WORKSPACE_AGENTS_DIR);
  const agents = lstat(agentsDir);
  if (agents?.isDirectory()) {
    for (const name of readdir(agentsDir).sort()) {
      if (name.startsWith('.')) continue;
      found.push({ path: `${agentsRel}/${name}/`, what: 'a workspace agent (its prompt and model)' });
    }
  } else if (agents) {
    found.push({ path: `${agentsRel}`, what: 'a workspace agents folder' });
  }
  if (lstat(path.join(workspaceRoot, WORKSPACE_MCP_CONFIG)))
    found.push({ path: toRel(WORKSPACE_MCP_CONFIG), what: 'MCP servers (processes started, URLs contacted)' });
  return found;
}

/** The file of folders a person trusted on a terminal: `{ "<real path>": { "at": ISO time } }`. */
export function trustedFoldersFile(env: Env = process.env): string {
  return path.join(userCacheDir(env), 'trusted-workspaces.json');
}

/** Whether a person trusted this folder before (by its real path: a link to it is the same folder). */
export function isRememberedTrusted(workspaceRoot: string, env: Env = process.env): boolean {
  const trusted = readTrusted(env);
  return Object.hasOwn(trusted, realPath(workspaceRoot));
}

/** Remembers that a person trusted this folder; the file is the person's alone (mode 600). */
export function rememberTrust(workspaceRoot: string, env: Env = process.env, now: Date = new Date()): void {
  const file = trustedFoldersFile(env);
  const trusted = { ...readTrusted(env), [realPath(workspaceRoot)]: { at: now.toISOString() } };
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(trusted, null, 1)}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
}

export interface TrustOptions {
  workspaceRoot: string;
  /** `--trust-workspace` (or the editor's confirmation): trusted for this command. */
  flag: boolean;
  env?: Env;
  /**
   * Asks the person (a terminal, never a pipe or `--yes`) whether to trust the folder that defines
   * these; true = trusted, and remembered. Absent: nobody is asked and the items are ignored.
   */
  ask?: (defined: readonly WorkspaceDefinition[]) => Promise<boolean>;
  /** Told one line per ignored item. */
  notice: (line: string) => void;
}

export interface TrustDecision {
  trusted: boolean;
  /** What the workspace defines (empty: nothing to trust, nobody asked). */
  defined: WorkspaceDefinition[];
}

/** Decides whether the workspace's own definitions are used, asking or naming what is ignored. */
export async function decideWorkspaceTrust(options: TrustOptions): Promise<TrustDecision> {
  const defined = workspaceDefinitions(options.workspaceRoot);
  if (defined.length === 0) return { trusted: options.flag, defined };
  if (options.flag || isRememberedTrusted(options.workspaceRoot, options.env)) return { trusted: true, defined };
  if (options.ask && (await options.ask(defined))) {
    rememberTrust(options.workspaceRoot, options.env);
    return { trusted: true, defined };
  }
  for (const item of defined) options.notice(ignoredLine(item));
  return { trusted: false, defined };
}

/** The one line that names an ignored item and how to use it (`how`: the face's way to trust). */
export function ignoredLine(item: WorkspaceDefinition, how = `pass ${TRUST_WORKSPACE_FLAG} to use it`): string {
  return `Ignored ${item.path} (${item.what}): this workspace is not trusted; ${how}.`;
}

/** The question a terminal asks, listing what the workspace defines. */
export function trustQuestion(workspaceRoot: string, defined: readonly WorkspaceDefinition[]): string {
  const lines = defined.map((item) => `  ${item.path}  ${item.what}`);
  return `The workspace ${workspaceRoot} defines what Ironbees would run or contact:\n${lines.join('\n')}\nTrust this folder and use them (remembered for this folder)? [y/N] `;
}

function readTrusted(env: Env): Record<string, unknown> {
  try {
    const json: unknown = JSON.parse(fs.readFileSync(trustedFoldersFile(env), 'utf8'));
    return json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function realPath(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

function lstat(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

function readdir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function toRel(p: string): string {
  return p.split(path.sep).join('/');
}
