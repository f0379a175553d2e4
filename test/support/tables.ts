// The lists tests compare against, read from where they are declared rather than written again in
// each test: the public node list and agent table (docs/contracts.md) and the bundled agents' folders.
// A new state or agent added by the recipes (CONTRIBUTING.md) then needs no test edited to be seen.

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..');
const contracts = (): string => readFileSync(path.join(REPO, 'docs', 'contracts.md'), 'utf8');

/** The nodes `currentNode` may be, in the contract's order. */
export function contractNodes(): string[] {
  const list = /`currentNode` is one of ([^.]+)\./.exec(contracts())?.[1];
  if (!list) throw new Error('docs/contracts.md no longer lists the nodes after "`currentNode` is one of"');
  return list.split(',').map((node) => node.trim());
}

/** The agents of the contract's "Model-facing tools" table, in its order. */
export function contractAgents(): string[] {
  const section = contracts().split('## Model-facing tools')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^\| ([a-z][a-z-]*) \|/gm)].map((match) => match[1]).filter((name) => name !== 'agent');
}

/** The bundled agents: the folders of agents/ that hold an agent.yaml, sorted. */
export function bundledAgentNames(): string[] {
  const dir = path.join(REPO, 'agents');
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, 'agent.yaml')))
    .map((entry) => entry.name)
    .sort();
}
