// Build time (esbuild.mjs): every agent.yaml in the bundled agents folder, read and checked with the
// same code a run uses (agent-yaml.ts), as { exact text: checked fields }. A bundled agent that does
// not pass fails the build, naming the file and field. A run reads and checks its agents itself.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentYaml } from './agent-definition';
import { AgentConfigError } from './agent-problems';
import type { AgentConfigProblem } from './agent-problems';
import { parseAgentYaml } from './agent-yaml';

export function precheckAgentFolder(agentsDir: string): Record<string, AgentYaml> {
  const checked: Record<string, AgentYaml> = {};
  const problems: AgentConfigProblem[] = [];
  const folders = fs.readdirSync(agentsDir, { withFileTypes: true }).filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'));
  for (const folder of folders) {
    const file = path.join(agentsDir, folder.name, 'agent.yaml');
    if (!fs.existsSync(file)) continue; // the loader reports it at run time, as for any folder
    const source = fs.readFileSync(file, 'utf8');
    const result = parseAgentYaml(source, path.relative(path.dirname(agentsDir), file).split(path.sep).join('/'));
    if ('problems' in result) problems.push(...result.problems);
    else checked[source] = result.yaml;
  }
  if (problems.length > 0) throw new AgentConfigError(problems);
  return checked;
}
