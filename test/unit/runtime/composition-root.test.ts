// The one composition root (src/core/runtime): the model provider registry, the one dotnet check,
// and the order of the checks a face relies on (dotnet before the host, agents after the tools).

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { ConfigurationError } from '../../../src/core/errors';
import type { RunResult, ProcessRunner } from '../../../src/core/host';
import type { ModelClient } from '../../../src/core/llm/port';
import { ScriptedModelClient } from '../../../src/core/llm/scripted';
import { StreamingDemoClient } from '../../../src/core/llm/providers/demo/demo-stream';
import { assembleRuntime, checkDotnet, createModelClient, modelProviderNames, registerModelProvider } from '../../../src/core/runtime';
import { memoryHost } from '../tools/memory-host';

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
        error instanceof ConfigurationError && error.message === `Unknown model provider "nope". Known: ${modelProviderNames().join(', ')}.`,
    );
    assert.deepEqual(modelProviderNames().slice(0, 2), ['anthropic', 'demo']);
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

  it('assembleRuntime: the bundled agents, the built-in tools plus an MCP source, an orchestrator', async () => {
    const host = memoryHost();
    const runtime = await assembleRuntime({
      workspaceRoot: host.workspaceRoot,
      logger: host.logger,
      model: new ScriptedModelClient([]),
      dotnetRunner: dotnetAnswering({ stdout: '10.0.100\n' }),
      createHost: () => host,
      bundledAgentsDir: BUNDLED_AGENTS,
    });
    assert.equal(runtime.host, host);
    assert.deepEqual([...runtime.agents.keys()].sort(), ['coder', 'planner', 'validator']);
    assert.equal(runtime.tools.hasSources(), true);
    assert.ok(runtime.tools.names().includes('submit_plan'));
    await runtime.closeMcp();
  });
});
