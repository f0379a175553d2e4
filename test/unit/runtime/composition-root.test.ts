// The one composition root (src/core/runtime): the model provider registry, the one dotnet check,
// and the order of the checks a face relies on (dotnet before the host, agents after the tools).

import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigurationError } from '../../../src/core/errors';
import type { RunResult, ProcessRunner } from '../../../src/core/host';
import type { ModelClient } from '../../../src/core/llm/port';
import { ScriptedModelClient } from '../../../src/core/llm/scripted';
import { StreamingDemoClient } from '../../../src/core/llm/providers/demo/demo-stream';
import { assembleRuntime, checkDotnet, createModelClient, modelProviderNames, registerModelProvider } from '../../../src/core/runtime';
import { memoryHost } from '../tools/memory-host';
import { bundledAgentNames } from '../../support/tables';

const BUNDLED_AGENTS = path.resolve(__dirname, '../../../agents');

function dotnetAnswering(result: Partial<RunResult> | Error): ProcessRunner & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    run: async (command: string, args: readonly string[]) => {
      calls.push([command, ...args]);
      if (result instanceof Error) throw result;
      return { exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 1, ...result } as RunResult;
    },
  } as ProcessRunner & { calls: string[][] };
}

describe('composition root (core/runtime)', () => {
  it('createModelClient: the demo provider is the scripted demo model; an unknown provider names the known ones', () => {
    // The scripted demo model, its words streamed a few at a time (demo-stream.ts).
    assert.ok(createModelClient({ provider: 'demo' }) instanceof StreamingDemoClient);
    assert.throws(
      () => createModelClient({ provider: 'nope' }),
      (error: unknown) =>
        error instanceof ConfigurationError &&
        error.message === `Unknown model provider "nope". Known: ${modelProviderNames().join(', ')}.`,
    );
    assert.deepEqual(modelProviderNames().slice(0, 3), ['anthropic', 'openai', 'demo']);
  });

  it('createModelClient: anthropic with no key anywhere says how to set one', () => {
    assert.throws(
      () => createModelClient({ provider: 'anthropic', env: {} }),
      /^ConfigurationError: No Anthropic API key: set ANTHROPIC_API_KEY \(and ANTHROPIC_BASE_URL for a proxy or gateway\), or use --demo for the scripted demo model\.$/,
    );
  });

  it('registerModelProvider: a registered provider is what createModelClient returns', () => {
    const model = new ScriptedModelClient([]);
    registerModelProvider('test-provider', (config) => {
      assert.equal(config.apiKey, 'k');
      return model;
    });
    assert.equal(createModelClient({ provider: 'test-provider', apiKey: 'k' }), model);
  });

  it('checkDotnet: the version; a failing dotnet is a ConfigurationError with what it said', async () => {
    const ok = dotnetAnswering({ stdout: '10.0.100\n' });
    assert.equal(await checkDotnet(ok, '/w'), '10.0.100');
    assert.deepEqual(ok.calls, [['dotnet', '--version']]);
    await assert.rejects(checkDotnet(dotnetAnswering({ exitCode: 1, stderr: 'A compatible .NET SDK was not found.\n' }), '/w'), {
      message: '`dotnet --version` failed in /w:\nA compatible .NET SDK was not found.',
    });
    await assert.rejects(checkDotnet(dotnetAnswering(new Error('spawn dotnet ENOENT')), '/w'), {
      message: 'dotnet was not found on PATH (spawn dotnet ENOENT). Install the .NET SDK (https://dot.net) or put it on PATH.',
    });
  });

  it('assembleRuntime: no dotnet stops before the host is made', async () => {
    let hostsMade = 0;
    await assert.rejects(
      assembleRuntime({
        workspaceRoot: '/w',
        trusted: true,
        logger: memoryHost().logger,
        model: new ScriptedModelClient([]) as ModelClient,
        dotnetRunner: dotnetAnswering(new Error('spawn dotnet ENOENT')),
        createHost: () => {
          hostsMade += 1;
          return memoryHost();
        },
        bundledAgentsDir: BUNDLED_AGENTS,
      }),
      ConfigurationError,
    );
    assert.equal(hostsMade, 0);
  });

  it('assembleRuntime: the agents are read while the SDK check runs; a missing SDK is still the error said, broken agents or not', async () => {
    let agentsRead = false;
    let readBeforeDotnetAnswered = false;
    const host = memoryHost();
    const slowDotnet = {
      run: async () => {
        // The SDK check waits (bounded) for the agents: it sees them read only when both run at once.
        for (const deadline = Date.now() + 5_000; !agentsRead && Date.now() < deadline;)
          await new Promise((resolve) => setTimeout(resolve, 5));
        readBeforeDotnetAnswered = agentsRead;
        return { exitCode: 0, stdout: '10.0.100\n', stderr: '', timedOut: false, durationMs: 1 } as RunResult;
      },
    } as unknown as ProcessRunner;
    const runtime = await assembleRuntime({
      workspaceRoot: host.workspaceRoot,
      trusted: true,
      logger: host.logger,
      model: new ScriptedModelClient([]),
      dotnetRunner: slowDotnet,
      createHost: () => host,
      bundledAgentsDir: BUNDLED_AGENTS,
      // Asked once the bundled and workspace agents are loaded (loadRunAgents).
      agentOverridesDir: () => {
        agentsRead = true;
        return undefined;
      },
    });
    assert.equal(readBeforeDotnetAnswered, true);
    assert.deepEqual([...runtime.agents.keys()].sort(), bundledAgentNames());
    await runtime.closeMcp();

    const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-runtime-'));
    try {
      await fs.mkdir(path.join(workspace, '.ironbees', 'agents', 'coder'), { recursive: true });
      await fs.writeFile(path.join(workspace, '.ironbees', 'agents', 'coder', 'agent.yaml'), 'name: [not a name\n');
      await assert.rejects(
        assembleRuntime({
          workspaceRoot: workspace,
          trusted: true,
          logger: host.logger,
          model: new ScriptedModelClient([]),
          dotnetRunner: dotnetAnswering(new Error('spawn dotnet ENOENT')),
          createHost: () => host,
          bundledAgentsDir: BUNDLED_AGENTS,
        }),
        { message: 'dotnet was not found on PATH (spawn dotnet ENOENT). Install the .NET SDK (https://dot.net) or put it on PATH.' },
      );
    } finally {
      await fs.rm(workspace, { recursive: true, force: true });
    }
  });

  it('assembleRuntime: the bundled agents, the built-in tools plus an MCP source, an orchestrator', async () => {
    const host = memoryHost();
    const runtime = await assembleRuntime({
      workspaceRoot: host.workspaceRoot,
      trusted: true,
      logger: host.logger,
      model: new ScriptedModelClient([]),
      dotnetRunner: dotnetAnswering({ stdout: '10.0.100\n' }),
      createHost: () => host,
      bundledAgentsDir: BUNDLED_AGENTS,
    });
    assert.equal(runtime.host, host);
    assert.deepEqual([...runtime.agents.keys()].sort(), bundledAgentNames());
    assert.equal(runtime.tools.hasSources(), true);
    assert.ok(runtime.tools.names().includes('submit_plan'));
    await runtime.closeMcp();
  });

  it('assembleRuntime: an untrusted workspace gets the bundled agents and no MCP source; trusted, its own agent and the source', async () => {
    const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-runtime-'));
    const host = memoryHost();
    try {
      const dir = path.join(workspace, '.ironbees', 'agents', 'planner');
      await fs.mkdir(dir, { recursive: true });
      const bundled = await fs.readFile(path.join(BUNDLED_AGENTS, 'planner', 'agent.yaml'), 'utf8');
      await fs.writeFile(path.join(dir, 'agent.yaml'), bundled);
      await fs.writeFile(path.join(dir, 'prompt.md'), 'THE REPOSITORY PROMPT');
      const assemble = (trusted: boolean): ReturnType<typeof assembleRuntime> =>
        assembleRuntime({
          workspaceRoot: workspace,
          trusted,
          logger: host.logger,
          model: new ScriptedModelClient([]),
          dotnetRunner: dotnetAnswering({ stdout: '10.0.100\n' }),
          createHost: () => host,
          bundledAgentsDir: BUNDLED_AGENTS,
        });
      const untrusted = await assemble(false);
      assert.equal(untrusted.agents.get('planner')?.origin, 'bundled');
      assert.notEqual(untrusted.agents.get('planner')?.prompt, 'THE REPOSITORY PROMPT');
      assert.equal(untrusted.tools.hasSources(), false);
      const trusted = await assemble(true);
      assert.equal(trusted.agents.get('planner')?.origin, 'workspace');
      assert.equal(trusted.agents.get('planner')?.prompt, 'THE REPOSITORY PROMPT');
      assert.equal(trusted.tools.hasSources(), true);
    } finally {
      await fs.rm(workspace, { recursive: true, force: true });
    }
  });
});
