// The bundled agent.yaml files are read and checked when Ironbees is built (esbuild.mjs, through
// agent-precheck.ts): the CLI bundle carries each file's exact text with its checked fields. A text
// found here needs neither the YAML parser nor the zod schema at run time (both stay unloaded: ~10 ms
// of every CLI start). Checking is a function of the text alone, so a workspace agent with the same
// text gets the same answer; any other text — a changed bundled file, a workspace's own agent, a
// checkout with other line endings — is read and checked as before (agent-yaml.ts).

import type { AgentYaml } from './agent-definition';

// esbuild.mjs defines this for the CLI bundle; elsewhere (the sources under tsx, the extension) it is absent.
declare const IRONBEES_PRECHECKED_AGENTS: Record<string, AgentYaml> | undefined;

const prechecked = new Map<string, AgentYaml>(typeof IRONBEES_PRECHECKED_AGENTS === 'object' ? Object.entries(IRONBEES_PRECHECKED_AGENTS) : []);

/** The checked fields of an agent.yaml text checked at build time (a copy each time), else undefined. */
export function precheckedAgentYaml(source: string): AgentYaml | undefined {
  const yaml = prechecked.get(source);
  return yaml === undefined ? undefined : structuredClone(yaml);
}

/** Adds texts checked elsewhere (agent-precheck.ts), as the build does for the CLI bundle. */
export function addPrecheckedAgents(checked: Readonly<Record<string, AgentYaml>>): void {
  for (const [source, yaml] of Object.entries(checked)) prechecked.set(source, yaml);
}
