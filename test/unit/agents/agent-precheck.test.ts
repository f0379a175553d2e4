// The bundled agent.yaml files are checked at build time (agent-precheck.ts, run by esbuild.mjs) with
// the code a run uses: the same answer as reading the file at run time, and a bad bundled agent fails
// the build.

import assert from 'node:assert/strict';
import { promises as fs, readFileSync, readdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { precheckAgentFolder } from '../../../src/core/agents/agent-precheck';
import { parseAgentYaml } from '../../../src/core/agents/agent-yaml';
import { AgentConfigError } from '../../../src/core/agents/loader';

const REPO = path.resolve(__dirname, '../../..');
const BUNDLED = path.join(REPO, 'agents');

const bundledTexts = (): Map<string, string> =>
  new Map(
    readdirSync(BUNDLED)
      .sort()
      .map((name) => [name, readFileSync(path.join(BUNDLED, name, 'agent.yaml'), 'utf8')]),
  );

async function agentsFolder(files: Record<string, string>): Promise<string> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-precheck-'));
  for (const [name, yaml] of Object.entries(files)) {
    await fs.mkdir(path.join(root, 'agents', name), { recursive: true });
    await fs.writeFile(path.join(root, 'agents', name, 'agent.yaml'), yaml);
    await fs.writeFile(path.join(root, 'agents', name, 'prompt.md'), 'You are a test agent.\n');
  }
  return path.join(root, 'agents');
}

describe('the build check of the bundled agents', () => {
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
        (error: unknown) =>
          error instanceof AgentConfigError &&
          error.message === 'agents/coder/agent.yaml: llmConfig.maxTokens: expected a positive integer, got "lots"',
      );
    } finally {
      await fs.rm(path.dirname(dir), { recursive: true, force: true });
    }
  });
});
