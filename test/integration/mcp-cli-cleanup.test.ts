// `ironbees run` stops the MCP servers its run started before it returns: they are child processes
// of the CLI, and a long-lived host (the test process here, an editor) must not collect them.
// Driven in process, so a server left running would still be alive when runCli returns.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli/app';
import type { CliDeps } from '../../src/cli/app';
import { workspaceMcpSource } from '../../src/core/mcp/workspace-source';
import { FakeOrchestrator, fsHost, testIo } from '../unit/cli/fakes';
import { makeState } from '../unit/cli/fixtures';
import { until } from '../support/cli-harness';

const EVERYTHING = path.resolve(__dirname, '..', '..', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('ironbees run and the MCP servers it starts', function () {
  this.timeout(60_000);
  let workspace: string;
  let pid: number | null;
  beforeEach(() => {
    workspace = mkdtempSync(path.join(tmpdir(), 'ironbees-mcp-cleanup-'));
    pid = null;
  });
  afterEach(() => {
    // Whatever a failed test left behind goes with it.
    if (pid !== null && alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(workspace, { recursive: true, force: true });
  });

  it('closes them before returning', async function () {
    if (process.platform === 'win32') this.skip();
    const pidFile = path.join(workspace, 'server.pid');
    mkdirSync(path.join(workspace, '.ironbees'), { recursive: true });
    // `exec` keeps the pid the shell wrote: it is the server's own.
    const command = `echo $$ > '${pidFile}'; exec '${process.execPath}' '${EVERYTHING}' stdio`;
    writeFileSync(
      path.join(workspace, '.ironbees', 'mcp.json'),
      JSON.stringify({ mcpServers: { everything: { command: 'sh', args: ['-c', command] } } }),
    );

    const host = fsHost(workspace);
    const orchestrator = new FakeOrchestrator(async function* () {
      yield makeState({ currentNode: 'PLAN' });
      // What the planner's tool loop does for an agent that lists an MCP tool: the server starts.
      const source = workspaceMcpSource(host, ['mcp__everything__echo']);
      assert.ok(source);
      const [echo] = await source.resolve(['mcp__everything__echo']);
      assert.match(echo.description, /from the MCP server "everything"/);
      pid = Number(readFileSync(pidFile, 'utf8').trim());
      assert.ok(alive(pid), 'the server runs during the run');
      yield makeState({ currentNode: 'SUCCESS' });
    });
    const deps: Partial<CliDeps> = { createRuntime: async () => ({ host, orchestrator }), createHost: () => host };

    const io = testIo([], workspace);
    assert.equal(await runCli(['run', 'Fix it', '--yes', '--trust-workspace'], io, deps), 0, io.err());
    assert.ok(pid !== null, 'the run started the server');
    const serverPid = pid;
    assert.ok(await until(() => !alive(serverPid), 1_000, 50), 'the server was stopped by the time runCli returned');
  });
});
