import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentConfigError, findBundledAgentsDir, loadAgents, requireAgent } from '../../../src/core/agents/loader';
import { ConfigurationError } from '../../../src/core/errors';
import { createDefaultToolRegistry } from '../../../src/core/agents/builtin';
import { functionsCompiledDuring } from '../../support/compiled-functions';
import { bundledAgentNames } from '../../support/tables';

const BUNDLED = path.resolve(__dirname, '../../../agents');
const KNOWN_TOOLS = createDefaultToolRegistry().names();

const GOOD_YAML = `name: coder
description: A stricter coder
version: 2.0.0
requiredTools: [read_file, str_replace_based_edit_tool, submit_changes]
llmConfig:
  model: claude-haiku-4-5
  maxTokens: 4096
  temperature: 0.2
toolConfig:
  turnBudget: 12
  custom: kept
`;

async function tempWorkspace(agents: Record<string, Record<string, string>>): Promise<string> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-agents-'));
  for (const [name, files] of Object.entries(agents)) {
    const dir = path.join(root, '.ironbees', 'agents', name);
    await fs.mkdir(dir, { recursive: true });
    for (const [file, content] of Object.entries(files)) await fs.writeFile(path.join(dir, file), content);
  }
  return root;
}

async function loadError(files: Record<string, string>, name = 'coder'): Promise<AgentConfigError> {
  const workspaceRoot = await tempWorkspace({ [name]: files });
  try {
    await loadAgents({ bundledDir: BUNDLED, workspaceRoot, knownTools: KNOWN_TOOLS });
  } catch (error) {
    assert.ok(error instanceof AgentConfigError, `expected AgentConfigError, got ${String(error)}`);
    assert.ok(error instanceof ConfigurationError);
    return error;
  } finally {
    await fs.rm(workspaceRoot, { recursive: true, force: true });
  }
  assert.fail('loadAgents should have failed');
}

describe('agent loader', () => {
  it('checks the definitions without compiling their schema (each is read once per run)', async () => {
    let names: string[] = [];
    const compiled = await functionsCompiledDuring(async () => {
      names = [...(await loadAgents({ bundledDir: BUNDLED, knownTools: KNOWN_TOOLS })).keys()].sort();
    });
    assert.equal(compiled, 0);
    assert.deepEqual(names, bundledAgentNames());
  });

  it('reads the folders side by side and reports their problems in folder order', async () => {
    // The big file is the slowest to read: its problem still comes first.
    const workspaceRoot = await tempWorkspace({
      'a-agent': {
        'agent.yaml': `name: a-agent\ndescription: ${'x'.repeat(400_000)}\nversion: 1.0.0\nllmConfig: {maxTokens: lots}\n`,
        'prompt.md': 'p',
      },
      'b-agent': { 'agent.yaml': 'name: b-agent\ndescription: y\nversion: 1.0.0\nllmConfig: {maxTokens: none}\n', 'prompt.md': 'p' },
    });
    try {
      await assert.rejects(loadAgents({ bundledDir: BUNDLED, workspaceRoot, knownTools: KNOWN_TOOLS }), (error: unknown) => {
        assert.ok(error instanceof AgentConfigError);
        assert.deepEqual(
          error.problems.map((problem) => `${problem.file}: ${problem.field}`),
          ['.ironbees/agents/a-agent/agent.yaml: llmConfig.maxTokens', '.ironbees/agents/b-agent/agent.yaml: llmConfig.maxTokens'],
        );
        return true;
      });
    } finally {
      await fs.rm(workspaceRoot, { recursive: true, force: true });
    }
  });

  it('loads the bundled planner, coder and validator, with their prompts and defaults', async () => {
    const agents = await loadAgents({ bundledDir: BUNDLED, knownTools: KNOWN_TOOLS });
    assert.deepEqual([...agents.keys()].sort(), bundledAgentNames());
    const planner = requireAgent(agents, 'planner');
    assert.ok(planner.requiredTools.includes('submit_plan'));
    assert.ok(!planner.requiredTools.includes('str_replace_based_edit_tool'), 'the planner never edits');
    assert.match(planner.prompt, /submit_plan/);
    assert.equal(planner.origin, 'bundled');
    assert.equal(planner.sourceDir, path.join(BUNDLED, 'planner'));
    const coder = requireAgent(agents, 'coder');
    assert.ok(coder.requiredTools.includes('str_replace_based_edit_tool'));
    assert.ok(coder.requiredTools.includes('submit_changes'));
    assert.match(coder.prompt, /never claim/i);
    assert.deepEqual(requireAgent(agents, 'validator').requiredTools, []);
    assert.equal(typeof coder.toolConfig.turnBudget, 'number');
  });

  it('lets a workspace agent override a bundled one and add new ones', async () => {
    const workspaceRoot = await tempWorkspace({
      coder: { 'agent.yaml': GOOD_YAML, 'prompt.md': 'Be strict. {{turnBudget}} turns.' },
      critic: {
        'agent.yaml': 'name: critic\ndescription: Reviews\nversion: 1\npromptTemplate: review.md\n',
        'review.md': 'Review the diff.',
      },
    });
    try {
      const agents = await loadAgents({ bundledDir: BUNDLED, workspaceRoot, knownTools: KNOWN_TOOLS });
      const coder = requireAgent(agents, 'coder');
      assert.equal(coder.origin, 'workspace');
      assert.equal(coder.prompt, 'Be strict. {{turnBudget}} turns.');
      assert.deepEqual(coder.llmConfig, { model: 'claude-haiku-4-5', maxTokens: 4096, temperature: 0.2 });
      assert.equal(coder.toolConfig.turnBudget, 12);
      assert.equal(coder.toolConfig.custom, 'kept', 'unknown tool settings are kept for the tools');
      const critic = requireAgent(agents, 'critic');
      assert.equal(critic.version, '1');
      assert.deepEqual(critic.requiredTools, []);
      assert.equal(critic.llmConfig.maxTokens, 8192);
      assert.equal(requireAgent(agents, 'planner').origin, 'bundled');
    } finally {
      await fs.rm(workspaceRoot, { recursive: true, force: true });
    }
  });

  it('reports a bad field with the file path, the field and what was expected', async () => {
    const error = await loadError({
      'agent.yaml': GOOD_YAML.replace('maxTokens: 4096', 'maxTokens: lots'),
      'prompt.md': 'x',
    });
    assert.equal(error.message, '.ironbees/agents/coder/agent.yaml: llmConfig.maxTokens: expected a positive integer, got "lots"');
    assert.deepEqual(error.problems[0], {
      file: '.ironbees/agents/coder/agent.yaml',
      field: 'llmConfig.maxTokens',
      message: 'expected a positive integer, got "lots"',
    });
  });

  it('reports every problem of a file at once: missing fields, wrong types, unknown fields', async () => {
    const error = await loadError({
      'agent.yaml': 'name: coder\nversion: [1]\nllmConfig:\n  temprature: 0.5\ntoolConfig:\n  turnBudget: 0\ncolour: red\n',
      'prompt.md': 'x',
    });
    const lines = error.message.split('\n');
    const file = '.ironbees/agents/coder/agent.yaml';
    assert.ok(lines.includes(`${file}: description: expected a one-line description, got nothing (the field is missing)`), error.message);
    assert.ok(lines.includes(`${file}: version: expected a version such as 1.0.0, got a list`), error.message);
    assert.ok(
      lines.some((line) => line.startsWith(`${file}: llmConfig.temprature: unknown field; expected one of model, maxTokens, temperature`)),
    );
    assert.ok(lines.includes(`${file}: toolConfig.turnBudget: expected a positive integer, got 0`), error.message);
    assert.ok(lines.some((line) => line.startsWith(`${file}: colour: unknown field; expected one of name, description`)));
  });

  it('names unknown tools with the list of known tools', async () => {
    const error = await loadError({
      'agent.yaml': GOOD_YAML.replace('[read_file,', '[read_files,'),
      'prompt.md': 'x',
    });
    assert.match(error.message, /agent\.yaml: requiredTools\[0\]: unknown tool "read_files"; known tools: .*read_file.*submit_plan/);
  });

  it('refuses a planner or coder override that leaves out the tool ending its turn', async () => {
    const coder = await loadError({ 'agent.yaml': GOOD_YAML.replace(', submit_changes]', ']'), 'prompt.md': 'x' });
    assert.deepEqual(coder.problems, [
      {
        file: '.ironbees/agents/coder/agent.yaml',
        field: 'requiredTools',
        message: 'must include submit_changes: the coder ends its turn with it, so without it the coder step can never finish',
      },
    ]);
    const plannerYaml = 'name: planner\ndescription: Plans\nversion: 1\nrequiredTools: [read_file, list_files]\n';
    const planner = await loadError({ 'agent.yaml': plannerYaml, 'prompt.md': 'x' }, 'planner');
    assert.equal(
      planner.message,
      '.ironbees/agents/planner/agent.yaml: requiredTools: must include submit_plan: the planner ends its turn with it, so without it the planner step can never finish',
    );
    // A planner with no requiredTools at all gets the same answer (the default is an empty list).
    const bare = await loadError({ 'agent.yaml': 'name: planner\ndescription: Plans\nversion: 1\n', 'prompt.md': 'x' }, 'planner');
    assert.match(bare.message, /planner\/agent\.yaml: requiredTools: must include submit_plan/);
  });

  it("keeps the bundled agent when an override without its terminal tool is skipped ('fallback')", async () => {
    const workspaceRoot = await tempWorkspace({ coder: { 'agent.yaml': GOOD_YAML.replace(', submit_changes]', ']'), 'prompt.md': 'x' } });
    const warnings: string[] = [];
    try {
      const agents = await loadAgents({
        bundledDir: BUNDLED,
        workspaceRoot,
        knownTools: KNOWN_TOOLS,
        onInvalidWorkspaceAgent: 'fallback',
        warn: (m) => warnings.push(m),
      });
      assert.equal(requireAgent(agents, 'coder').origin, 'bundled');
      assert.ok(
        warnings.some((w) => /requiredTools: must include submit_changes/.test(w)),
        warnings.join('\n'),
      );
    } finally {
      await fs.rm(workspaceRoot, { recursive: true, force: true });
    }
  });

  it('reports YAML syntax errors with the line and column', async () => {
    const error = await loadError({ 'agent.yaml': 'name: coder\ndescription: [unclosed\n  version: 1\n', 'prompt.md': 'x' });
    assert.match(error.message, /^\.ironbees\/agents\/coder\/agent\.yaml: invalid YAML at line \d+, column \d+: /);
  });

  it('reports a missing prompt file, a missing agent.yaml, an empty file and a name that is not the folder', async () => {
    const missingPrompt = await loadError({ 'agent.yaml': GOOD_YAML });
    assert.match(missingPrompt.message, /^\.ironbees\/agents\/coder\/prompt\.md: the prompt file is missing \(named by promptTemplate/);

    const missingYaml = await loadError({ 'prompt.md': 'x' });
    assert.match(missingYaml.message, /coder\/agent\.yaml: agent\.yaml is missing/);

    const empty = await loadError({ 'agent.yaml': '', 'prompt.md': 'x' });
    assert.match(empty.message, /coder\/agent\.yaml: the file is empty; expected the fields name, description/);

    const misnamed = await loadError({ 'agent.yaml': GOOD_YAML.replace('name: coder', 'name: koder'), 'prompt.md': 'x' });
    assert.match(misnamed.message, /coder\/agent\.yaml: name: expected "coder" \(the folder name\), got "koder"/);
  });

  it('refuses a promptTemplate that leaves the agent folder', async () => {
    const error = await loadError({ 'agent.yaml': `${GOOD_YAML}promptTemplate: ../../secret.md\n`, 'prompt.md': 'x' });
    assert.match(error.message, /promptTemplate: expected a file name inside the agent folder/);
  });

  it("with onInvalidWorkspaceAgent 'fallback', skips a bad override with a warning and keeps the bundled agent", async () => {
    const workspaceRoot = await tempWorkspace({ coder: { 'agent.yaml': 'name: coder\n', 'prompt.md': 'x' } });
    const warnings: string[] = [];
    try {
      const agents = await loadAgents({
        bundledDir: BUNDLED,
        workspaceRoot,
        knownTools: KNOWN_TOOLS,
        onInvalidWorkspaceAgent: 'fallback',
        warn: (message) => warnings.push(message),
      });
      assert.equal(requireAgent(agents, 'coder').origin, 'bundled');
      assert.ok(
        warnings.some((warning) => /coder\/agent\.yaml: description: .*this workspace agent is ignored/.test(warning)),
        warnings.join('\n'),
      );
    } finally {
      await fs.rm(workspaceRoot, { recursive: true, force: true });
    }
  });

  it('fails clearly when the bundled folder does not exist, and requireAgent lists the agents', async () => {
    await assert.rejects(loadAgents({ bundledDir: path.join(os.tmpdir(), 'no-such-agents-dir') }), /bundled agents folder does not exist/);
    const agents = await loadAgents({ bundledDir: BUNDLED });
    // The bundled folders, sorted (a new agent added by the recipe is listed too).
    assert.throws(
      () => requireAgent(agents, 'tester'),
      (error: Error) => {
        assert.equal(error.message, `No agent named "tester"; loaded agents: ${bundledAgentNames().join(', ')}`);
        return true;
      },
    );
  });

  it('finds the bundled agents folder from anywhere below the package', async () => {
    assert.equal(await findBundledAgentsDir(__dirname), BUNDLED);
  });

  describe("containment of a repository's agent files", () => {
    const PLANNER_YAML = `name: planner
description: repo planner
version: 1.0.0
requiredTools: [read_file, submit_plan]
`;
    let outside: string;
    beforeEach(async () => {
      outside = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-agents-outside-'));
      await fs.writeFile(path.join(outside, 'environ'), 'ANTHROPIC_API_KEY=sk-outside-secret');
    });
    afterEach(() => fs.rm(outside, { recursive: true, force: true }));

    it('a prompt.md that is a link (to /proc/self/environ or any file outside) is never read: the load fails naming it', async () => {
      const target = process.platform === 'linux' ? '/proc/self/environ' : path.join(outside, 'environ');
      const root = await tempWorkspace({ planner: { 'agent.yaml': PLANNER_YAML } });
      try {
        await fs.symlink(target, path.join(root, '.ironbees', 'agents', 'planner', 'prompt.md'));
        const error = await loadAgents({ bundledDir: BUNDLED, workspaceRoot: root, knownTools: KNOWN_TOOLS }).then(
          () => assert.fail('loaded'),
          (e: unknown) => e as AgentConfigError,
        );
        assert.ok(error instanceof AgentConfigError);
        assert.deepEqual(
          error.problems.map((p) => p.file),
          ['.ironbees/agents/planner/prompt.md'],
        );
        assert.match(error.problems[0].message, /symbolic link that leads outside the workspace.*\(not read\)/);
        assert.doesNotMatch(error.message, /sk-outside-secret|PATH=/);
        // The editor's fallback keeps the bundled planner, with none of the file's text.
        const warned: string[] = [];
        const agents = await loadAgents({
          bundledDir: BUNDLED,
          workspaceRoot: root,
          knownTools: KNOWN_TOOLS,
          onInvalidWorkspaceAgent: 'fallback',
          warn: (m) => warned.push(m),
        });
        assert.equal(requireAgent(agents, 'planner').origin, 'bundled');
        assert.equal(warned.length, 1);
      } finally {
        await fs.rm(root, { recursive: true, force: true });
      }
    });

    it('a link that stays inside the workspace is refused too, and so is an agent.yaml link and an agents folder link', async () => {
      const root = await tempWorkspace({ planner: { 'agent.yaml': PLANNER_YAML } });
      try {
        await fs.writeFile(path.join(root, 'README.md'), 'inside');
        await fs.symlink(path.join(root, 'README.md'), path.join(root, '.ironbees', 'agents', 'planner', 'prompt.md'));
        await assert.rejects(
          loadAgents({ bundledDir: BUNDLED, workspaceRoot: root, knownTools: KNOWN_TOOLS }),
          /prompt\.md.*symbolic link/s,
        );

        await fs.rm(path.join(root, '.ironbees', 'agents'), { recursive: true });
        await fs.mkdir(path.join(outside, 'planner'));
        await fs.writeFile(path.join(outside, 'planner', 'agent.yaml'), PLANNER_YAML);
        await fs.writeFile(path.join(outside, 'planner', 'prompt.md'), 'OUTSIDE PROMPT');
        await fs.symlink(outside, path.join(root, '.ironbees', 'agents'));
        await assert.rejects(
          loadAgents({ bundledDir: BUNDLED, workspaceRoot: root, knownTools: KNOWN_TOOLS }),
          /\.ironbees\/agents.*symbolic link/s,
        );
      } finally {
        await fs.rm(root, { recursive: true, force: true });
      }
    });
  });
});
