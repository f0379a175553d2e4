// The bundled agent.yaml files are checked at build time (agent-precheck.ts, run by esbuild.mjs) and a
// run takes a text found there as checked (prechecked-agents.ts): the same answer as reading the file
// at run time, only for that exact text, and a bad bundled agent fails the build.

import assert from 'node:assert/strict';
import { promises as fs, readFileSync, readdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { precheckAgentFolder } from '../../../src/core/agents/agent-precheck';
import { parseAgentYaml } from '../../../src/core/agents/agent-yaml';
import { AgentConfigError, loadAgents } from '../../../src/core/agents/loader';
import { addPrecheckedAgents, precheckedAgentYaml } from '../../../src/core/agents/prechecked-agents';
import type { AgentYaml } from '../../../src/core/agents/agent-definition';
import { createDefaultToolRegistry } from '../../../src/core/agents/builtin';

const REPO = path.resolve(__dirname, '../../..');
const BUNDLED = path.join(REPO, 'agents');
const KNOWN_TOOLS = createDefaultToolRegistry().names();

const bundledTexts = (): Map<string, string> =>
  new Map(readdirSync(BUNDLED).sort().map((name) => [name, readFileSync(path.join(BUNDLED, name, 'agent.yaml'), 'utf8')]));

async function agentsFolder(files: Record<string, string>): Promise<string> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-precheck-'));
  for (const [name, yaml] of Object.entries(files)) {
    await fs.mkdir(path.join(root, 'agents', name), { recursive: true });
    await fs.writeFile(path.join(root, 'agents', name, 'agent.yaml'), yaml);
    await fs.writeFile(path.join(root, 'agents', name, 'prompt.md'), 'You are a test agent.\n');
  }
  return path.join(root, 'agents');
}

describe('prechecked bundled agents', () => {
  it('the build check gives, for each bundled agent.yaml text, exactly what a run reads from it', () => {
    const checked = precheckAgentFolder(BUNDLED);
    const texts = bundledTexts();
    assert.deepEqual(Object.keys(checked).sort(), [...texts.values()].sort());
    for (const [name, text] of texts) {
      const atRunTime = parseAgentYaml(text, `agents/${name}/agent.yaml`);
      assert.ok('yaml' in atRunTime, `agents/${name}/agent.yaml`);
      assert.deepEqual(checked[text], atRunTime.yaml);
      assert.equal(checked[text].name, name);
    }
  });

  it('a bad bundled agent fails the build check, naming the file and the field', async () => {
    const dir = await agentsFolder({ coder: 'name: coder\ndescription: x\nversion: 1.0.0\nllmConfig:\n  model: m\n  maxTokens: lots\n' });
    try {
      assert.throws(
        () => precheckAgentFolder(dir),
        (error: unknown) => error instanceof AgentConfigError && error.message === 'agents/coder/agent.yaml: llmConfig.maxTokens: expected a positive integer, got "lots"',
      );
    } finally {
      await fs.rm(path.dirname(dir), { recursive: true, force: true });
    }
  });

  it('a run takes a prechecked text as checked, and reads any other text', async () => {
    const text = 'name: precheck-probe\ndescription: as written in the file\nversion: 1.0.0\n';
    const dir = await agentsFolder({ 'precheck-probe': text });
    try {
      const checked = precheckAgentFolder(dir);
      // Marked so the test sees which answer the loader used: the file says otherwise.
      addPrecheckedAgents({ [text]: { ...checked[text], description: 'as checked at build time' } as AgentYaml });
      const loaded = await loadAgents({ bundledDir: dir, knownTools: KNOWN_TOOLS });
      assert.equal(loaded.get('precheck-probe')?.description, 'as checked at build time');
      assert.equal(loaded.get('precheck-probe')?.prompt, 'You are a test agent.\n');
      // One byte more and it is read and checked at run time.
      await fs.writeFile(path.join(dir, 'precheck-probe', 'agent.yaml'), `${text}\n`);
      const reread = await loadAgents({ bundledDir: dir, knownTools: KNOWN_TOOLS });
      assert.equal(reread.get('precheck-probe')?.description, 'as written in the file');
    } finally {
      await fs.rm(path.dirname(dir), { recursive: true, force: true });
    }
  });

  it('each run gets its own copy of a prechecked definition', () => {
    const text = 'name: copy-probe\ndescription: d\nversion: 1.0.0\n';
    addPrecheckedAgents({ [text]: { name: 'copy-probe', description: 'd', version: '1.0.0', requiredTools: [], promptTemplate: 'prompt.md', llmConfig: { model: 'm', maxTokens: 1 }, toolConfig: {} } });
    const first = precheckedAgentYaml(text);
    first?.requiredTools.push('read_file');
    assert.deepEqual(precheckedAgentYaml(text)?.requiredTools, []);
  });

  it('the CLI bundle carries every bundled agent.yaml text (npm run build)', () => {
    const bundle = readFileSync(path.join(REPO, 'dist', 'cli-main.js'), 'latin1');
    for (const [name, text] of bundledTexts()) assert.ok(bundle.includes(JSON.stringify(text)), `dist/cli-main.js lacks agents/${name}/agent.yaml as built`);
  });
});
