// The CLI's trust gate: a workspace's own agents and MCP servers reach the runtime only with
// --trust-workspace (or a terminal's "yes"); --yes and a piped stdin never trust it.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/app';
import type { CliDeps, RuntimeOptions } from '../../../src/cli/app';
import { makeState } from './fixtures';
import { FakeOrchestrator, fsHost, testIo } from './fakes';

describe('CLI trust gate', () => {
  let workspace: string;
  let calls: RuntimeOptions[];

  beforeEach(async () => {
    workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-cli-trust-'));
    await fs.writeFile(path.join(workspace, 'App.sln'), '');
    calls = [];
  });
  afterEach(async () => {
    await fs.rm(workspace, { recursive: true, force: true });
  });

  function deps(): Partial<CliDeps> {
    const orchestrator = new FakeOrchestrator(async function* () {
      yield makeState({ currentNode: 'SUCCESS' });
    });
    return {
      createRuntime: async (options) => {
        calls.push(options);
        return { host: fsHost(options.workspaceRoot), orchestrator };
      },
      createHost: (root) => fsHost(root),
    };
  }

  async function defineAgentAndMcp(): Promise<void> {
    await fs.mkdir(path.join(workspace, '.ironbees', 'agents', 'planner'), { recursive: true });
    await fs.writeFile(path.join(workspace, '.ironbees', 'mcp.json'), '{"mcpServers":{}}');
  }

  it('--yes with a piped "y" on stdin: untrusted, each item named on one line', async () => {
    await defineAgentAndMcp();
    const io = testIo(['y', 'y', 'y'], workspace);
    assert.equal(await runCli(['run', 'Fix it', '--yes', '--target', 'App.sln'], io, deps()), 0);
    assert.deepEqual(
      calls.map((c) => c.trusted),
      [false],
    );
    const ignored = io
      .err()
      .split('\n')
      .filter((line) => line.startsWith('Ignored '));
    assert.deepEqual(ignored, [
      'Ignored .ironbees/agents/planner/ (a workspace agent (its prompt and model)): this workspace is not trusted; pass --trust-workspace to use it.',
      'Ignored .ironbees/mcp.json (MCP servers (processes started, URLs contacted)): this workspace is not trusted; pass --trust-workspace to use it.',
    ]);
  });

  it('--trust-workspace trusts it, and nothing is said', async () => {
    await defineAgentAndMcp();
    const io = testIo(null, workspace);
    assert.equal(await runCli(['run', 'Fix it', '--yes', '--trust-workspace', '--target', 'App.sln'], io, deps()), 0);
    assert.deepEqual(
      calls.map((c) => c.trusted),
      [true],
    );
    assert.doesNotMatch(io.err(), /Ignored /);
  });

  it('a workspace that defines nothing: no question, no line', async () => {
    const io = testIo(null, workspace);
    assert.equal(await runCli(['run', 'Fix it', '--yes', '--target', 'App.sln'], io, deps()), 0);
    assert.deepEqual(
      calls.map((c) => c.trusted),
      [false],
    );
    assert.doesNotMatch(io.err(), /Ignored |trust/i);
  });

  it('a symbolic-link .ironbees is refused with exit 2 before a runtime is made', async () => {
    const elsewhere = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-cli-elsewhere-'));
    try {
      await fs.symlink(elsewhere, path.join(workspace, '.ironbees'));
      const io = testIo(null, workspace);
      assert.equal(await runCli(['run', 'Fix it', '--yes', '--target', 'App.sln'], io, deps()), 2);
      assert.match(io.err(), /\.ironbees is a symbolic link/);
      assert.deepEqual(calls, []);
      assert.deepEqual(await fs.readdir(elsewhere), []);
    } finally {
      await fs.rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('ironbees mcp never asks on its stdin (the protocol): untrusted unless --trust-workspace, each item named on stderr', async () => {
    await defineAgentAndMcp();
    const untrusted = testIo([], workspace);
    assert.equal(await runCli(['mcp'], untrusted, deps()), 0);
    assert.equal(
      untrusted
        .err()
        .split('\n')
        .filter((line) => line.startsWith('Ignored ')).length,
      2,
    );
    assert.equal(untrusted.out(), '', 'nothing but the protocol on stdout');
    const trusted = testIo([], workspace);
    assert.equal(await runCli(['mcp', '--trust-workspace'], trusted, deps()), 0);
    assert.doesNotMatch(trusted.err(), /Ignored /);
  });

  it('on a terminal the person is asked, listing what the workspace defines; a "y" is remembered for the folder', async () => {
    await defineAgentAndMcp();
    const cache = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-cli-trust-cache-'));
    try {
      const onTerminal = (answers: string[] | null): ReturnType<typeof testIo> => {
        const io = testIo(null, workspace);
        Object.assign(io.stdin, { isTTY: true });
        Object.assign(io.stderr, { isTTY: true });
        Object.assign(io.env, { IRONBEES_CACHE_DIR: cache });
        if (answers) io.stdin.end(answers.map((a) => `${a}\n`).join(''));
        return io;
      };
      const first = onTerminal(['y']);
      assert.equal(await runCli(['run', 'Fix it', '--yes', '--target', 'App.sln'], first, deps()), 0);
      assert.match(first.err(), /defines what Ironbees would run or contact:\n {2}\.ironbees\/agents\/planner\/ {2}a workspace agent/);
      assert.match(first.err(), /Trust this folder and use them \(remembered for this folder\)\? \[y\/N\]/);
      const again = onTerminal(null);
      assert.equal(await runCli(['run', 'Fix it', '--yes', '--target', 'App.sln'], again, deps()), 0);
      assert.doesNotMatch(again.err(), /Trust this folder/);
      assert.deepEqual(
        calls.map((c) => c.trusted),
        [true, true],
      );
    } finally {
      await fs.rm(cache, { recursive: true, force: true });
    }
  });
});
