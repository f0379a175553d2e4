// Loads the agents: the bundled `agents/<name>/` folders, then the workspace's
// `.ironbees/agents/<name>/`, which override a bundled agent of the same name or add new ones.
//
// A bad file is reported with its path, the field and what was expected, all problems at once, as
// one AgentConfigError (a ConfigurationError: the CLI exits 2, nothing changed). A bad *workspace*
// agent fails the load by default, because a person who wrote an override expects it to be used;
// `onInvalidWorkspaceAgent: 'fallback'` (for the editor, which must keep working) skips it with a
// warning instead and the bundled agent of that name stays in force.

import { promises as fs } from 'node:fs';
import type { Dirent } from 'node:fs';
import * as path from 'node:path';
import { isMcpToolName } from '../tools/mcp-naming';
import type { AgentCatalog, AgentDefinition } from './agent-definition';
import { AgentConfigError, describeValue, formatProblem } from './agent-problems';
import type { AgentConfigProblem } from './agent-problems';
import { parseAgentYaml } from './agent-yaml';
import { builtinAgentRegistry } from './builtin';
import type { AgentRegistry } from './unit';
import { PathOutsideWorkspaceError } from '../errors';
import { resolveToolingPath } from '../workspace/paths';

export { requireAgent } from './agent-definition';
export type { AgentCatalog, AgentDefinition, AgentLlmConfig, AgentToolConfig } from './agent-definition';
export { AgentConfigError, formatProblem } from './agent-problems';
export type { AgentConfigProblem } from './agent-problems';

export interface LoadAgentsOptions {
  /** The bundled agents folder (absolute). */
  bundledDir: string;
  /** When given, `<workspaceRoot>/.ironbees/agents/` overrides and extends the bundled agents. */
  workspaceRoot?: string;
  /** Tool names that exist; requiredTools naming anything else is an error listing these. */
  knownTools?: readonly string[];
  onInvalidWorkspaceAgent?: 'fail' | 'fallback';
  /** Told about skipped workspace agents in 'fallback' mode. */
  warn?: (message: string) => void;
  /**
   * The agents' runners (default: the built-in ones). An agent with a runner must list its terminal
   * tool: without it its step could never finish, so the loader refuses it up front instead of
   * letting a run fail at that step after its baseline and approvals.
   */
  units?: AgentRegistry;
}

export const WORKSPACE_AGENTS_DIR = path.join('.ironbees', 'agents');

export async function loadAgents(options: LoadAgentsOptions): Promise<AgentCatalog> {
  const catalog = new Map<string, AgentDefinition>();
  const checks: FolderChecks = { knownTools: options.knownTools, units: options.units ?? builtinAgentRegistry() };
  const bundled = await loadFolder(options.bundledDir, path.dirname(options.bundledDir), 'bundled', checks);
  if (bundled.problems.length > 0) throw new AgentConfigError(bundled.problems);
  if (!bundled.exists) {
    throw new AgentConfigError([{ file: options.bundledDir, field: null, message: 'the bundled agents folder does not exist' }]);
  }
  for (const agent of bundled.agents) catalog.set(agent.name, agent);

  if (options.workspaceRoot) {
    const dir = path.join(options.workspaceRoot, WORKSPACE_AGENTS_DIR);
    const root = options.workspaceRoot;
    // A repository's agent files are read only where they are: no link (a prompt.md pointing at
    // /proc/self/environ, an agents folder pointing out of the workspace) is followed.
    const contain = (file: string): string => resolveToolingPath(root, path.relative(root, file));
    const local = await loadFolder(dir, root, 'workspace', { ...checks, contain });
    if (local.problems.length > 0) {
      if (options.onInvalidWorkspaceAgent !== 'fallback') throw new AgentConfigError(local.problems);
      const warn = options.warn ?? ((message: string) => process.stderr.write(`warning: ${message}\n`));
      for (const problem of local.problems) warn(`${formatProblem(problem)} (this workspace agent is ignored)`);
    }
    for (const agent of local.agents) catalog.set(agent.name, agent);
  }
  return catalog;
}

interface FolderChecks {
  knownTools: readonly string[] | undefined;
  units: AgentRegistry;
  /** The workspace's containment check (the absolute path, or a PathOutsideWorkspaceError); none for Ironbees' own agents. */
  contain?: (file: string) => string;
}

interface FolderResult {
  exists: boolean;
  agents: AgentDefinition[];
  problems: AgentConfigProblem[];
}

async function loadFolder(
  dir: string,
  displayRoot: string,
  origin: AgentDefinition['origin'],
  checks: FolderChecks,
): Promise<FolderResult> {
  let entries: Dirent[];
  try {
    const refused = refusal(checks.contain, dir, displayRoot);
    if (refused) return { exists: true, agents: [], problems: [refused] };
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false, agents: [], problems: [] };
    throw error;
  }
  const result: FolderResult = { exists: true, agents: [], problems: [] };
  const folders = entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith('.')).map((entry) => entry.name);
  // The folders are read side by side (each is two small reads in turn); results keep the sorted order.
  const loads = await Promise.all(folders.sort().map((folder) => loadAgentFolder(path.join(dir, folder), displayRoot, origin, checks)));
  for (const loaded of loads) {
    if ('agent' in loaded) result.agents.push(loaded.agent);
    else result.problems.push(...loaded.problems);
  }
  return result;
}

async function loadAgentFolder(
  agentDir: string,
  displayRoot: string,
  origin: AgentDefinition['origin'],
  { knownTools, units, contain }: FolderChecks,
): Promise<{ agent: AgentDefinition } | { problems: AgentConfigProblem[] }> {
  const yamlPath = path.join(agentDir, 'agent.yaml');
  const file = toDisplay(displayRoot, yamlPath);
  const refusedYaml = refusal(contain, yamlPath, displayRoot);
  if (refusedYaml) return { problems: [refusedYaml] };
  const source = await readText(yamlPath);
  if (source === null) return { problems: [{ file, field: null, message: 'agent.yaml is missing (every agent folder needs one)' }] };

  const checked = parseAgentYaml(source, file);
  if ('problems' in checked) return checked;
  const yaml = checked.yaml;

  const problems: AgentConfigProblem[] = [];
  const folderName = path.basename(agentDir);
  if (yaml.name !== folderName) {
    problems.push({ file, field: 'name', message: `expected "${folderName}" (the folder name), got ${describeValue(yaml.name)}` });
  }
  if (knownTools) {
    yaml.requiredTools.forEach((tool, index) => {
      // MCP tools are checked when the agent runs: their servers are not started just to load agents.
      if (!knownTools.includes(tool) && !isMcpToolName(tool)) {
        problems.push({
          file,
          field: `requiredTools[${index}]`,
          message: `unknown tool "${tool}"; known tools: ${knownTools.join(', ')} (or an MCP tool as mcp__<server>__<tool>)`,
        });
      }
    });
  }
  const terminalTool = units.terminalToolOf(yaml.name);
  if (terminalTool && !yaml.requiredTools.includes(terminalTool)) {
    problems.push({
      file,
      field: 'requiredTools',
      message: `must include ${terminalTool}: the ${yaml.name} ends its turn with it, so without it the ${yaml.name} step can never finish`,
    });
  }
  const promptPath = path.join(agentDir, yaml.promptTemplate);
  const refusedPrompt = refusal(contain, promptPath, displayRoot);
  if (refusedPrompt) return { problems: [...problems, refusedPrompt] };
  const prompt = await readText(promptPath);
  if (prompt === null) {
    problems.push({
      file: toDisplay(displayRoot, promptPath),
      field: null,
      message: `the prompt file is missing (named by promptTemplate in ${path.basename(yamlPath)})`,
    });
  } else if (!prompt.trim()) {
    problems.push({ file: toDisplay(displayRoot, promptPath), field: null, message: 'the prompt file is empty' });
  }
  if (problems.length > 0 || prompt === null) return { problems };
  return { agent: { ...yaml, prompt, sourceDir: agentDir, origin } };
}

/** The problem that names a file the containment check refuses, or null when it may be read. */
function refusal(contain: FolderChecks['contain'], file: string, displayRoot: string): AgentConfigProblem | null {
  if (!contain) return null;
  try {
    contain(file);
    return null;
  } catch (error) {
    if (!(error instanceof PathOutsideWorkspaceError)) throw error;
    return { file: toDisplay(displayRoot, file), field: null, message: `${error.message} (not read)` };
  }
}

async function readText(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
    throw error;
  }
}

function toDisplay(root: string, file: string): string {
  const relative = path.relative(root, file);
  return (relative.startsWith('..') ? file : relative).split(path.sep).join('/');
}

/**
 * The bundled agents folder: the nearest `agents/` holding planner/agent.yaml, walking up from
 * `startDir` (the package root in development, next to dist/ when built).
 */
export async function findBundledAgentsDir(startDir: string): Promise<string | null> {
  let dir = path.resolve(startDir);
  for (;;) {
    const candidate = path.join(dir, 'agents');
    if ((await readText(path.join(candidate, 'planner', 'agent.yaml'))) !== null) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
