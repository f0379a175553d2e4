import * as assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { z } from 'zod';
import type { AgentDefinition } from '../../../src/core/agents/loader';
import { AgentRegistry } from '../../../src/core/agents/unit';
import type { AgentUnit } from '../../../src/core/agents/unit';
import type { Host, RunResult } from '../../../src/core/host';
import { ToolRegistry, jsonSchemaMade } from '../../../src/core/tools/registry';
import type { ToolDefinition } from '../../../src/core/tools/types';
import { afterFirstProcessStarts } from '../../../src/core/dotnet/process-hooks';
import { prepareAgentTools, prepareRunSteps } from '../../../src/core/workflow/tool-warmup';
import { traceIdOf } from '../../../src/core/workflow/turn-trace';
import { countHashes } from '../../support/count-hashes';
import { memoryHost } from '../tools/memory-host';

function tool(name: string): ToolDefinition {
  // A schema of its own per tool, so no other test can have made its JSON Schema already.
  return {
    name,
    description: name,
    input: z.object({ path: z.string(), depth: z.number().int().optional() }),
    readonly: true,
    timeoutMs: 1000,
    execute: async () => ({ ok: true, content: '' }),
  };
}

function unit(name: string): AgentUnit<never, unknown> {
  return { name, terminalTool: tool(`${name}_done`), run: async () => undefined };
}

describe('tool warm-up while the baseline runs', () => {
  it('calls back once, on the turn after the first process started, not before and not for the next ones', async () => {
    const calls: string[] = [];
    const result: RunResult = { exitCode: 0, stdout: 'built', stderr: '', durationMs: 1, timedOut: false, cancelled: false };
    const host: Host = { ...memoryHost(), process: { run: async (command) => (calls.push(`run ${command}`), result) } };
    const watched = afterFirstProcessStarts(host, () => calls.push('warm'));
    assert.equal(watched.workspaceRoot, host.workspaceRoot);
    await nextTurn();
    assert.deepEqual(calls, [], 'nothing before a process starts');
    const first = watched.process.run('dotnet', ['build'], { cwd: host.workspaceRoot, timeoutMs: 1000 });
    assert.deepEqual(calls, ['run dotnet'], 'the process starts first');
    assert.equal(await first, result);
    await nextTurn();
    assert.deepEqual(calls, ['run dotnet', 'warm']);
    await watched.process.run('dotnet', ['test'], { cwd: host.workspaceRoot, timeoutMs: 1000 });
    await nextTurn();
    assert.deepEqual(calls, ['run dotnet', 'warm', 'run dotnet']);
  });

  it("makes the JSON Schema of every registered agent's registered tools, and of no other", () => {
    const [read, edit, unused] = [tool('read'), tool('edit'), tool('unused')];
    const units = new AgentRegistry([unit('planner'), unit('coder')]);
    const tools = new ToolRegistry().register(read).register(edit).register(unused);
    for (const terminal of units.terminalTools()) tools.register(terminal);
    const agents = new Map([
      ['planner', { requiredTools: ['read', 'planner_done', 'mcp__docs__search'] }],
      ['coder', { requiredTools: ['read', 'edit', 'coder_done'] }],
      ['reviewer', { requiredTools: ['unused'] }],
    ]) as unknown as ReadonlyMap<string, AgentDefinition>;
    const all = [read, edit, unused, ...units.terminalTools()];
    assert.deepEqual(
      all.map((def) => jsonSchemaMade(def.input)),
      [false, false, false, false, false],
    );
    prepareAgentTools(tools, agents, units);
    // read, edit and both terminal tools; not the tool only an unregistered agent lists; the MCP name is left to its source.
    assert.deepEqual(
      all.map((def) => jsonSchemaMade(def.input)),
      [true, true, false, true, true],
    );
  });

  it("works out the run's trace id too: the steps after hash nothing for it", () => {
    const [read, done] = [tool('read'), tool('planner_done')];
    const tools = new ToolRegistry().register(read).register(done);
    const agents = new Map([['planner', { requiredTools: ['read', 'planner_done'] }]]) as unknown as ReadonlyMap<string, AgentDefinition>;
    const hashes = countHashes();
    try {
      prepareRunSteps('run-warmed', tools, agents, new AgentRegistry([unit('planner')]));
      assert.deepEqual(hashes.algorithms, ['sha256'], 'made while the baseline runs');
      assert.deepEqual(
        [read, done].map((def) => jsonSchemaMade(def.input)),
        [true, true],
        'and the tools, as before',
      );
      traceIdOf('run-warmed');
      traceIdOf('run-warmed');
      assert.deepEqual(hashes.algorithms, ['sha256'], 'the PLAN and CODE steps ask again: no hash between the steps');
    } finally {
      hashes.restore();
    }
  });
});
