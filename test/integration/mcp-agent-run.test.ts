// An agent run that uses a tool of a configured MCP server, end to end: the real CLI, real dotnet on
// a copy of the calculator fixture, the real Anthropic SDK against the scripted fake Messages API,
// and @modelcontextprotocol/server-everything over stdio, configured in .ironbees/mcp.json and
// offered to a workspace planner through its requiredTools. Plus: a configured server that cannot
// start does not touch a run that does not need it.

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFakeAnthropic, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic, FakeRequest, FakeTurn } from '../support/fake-anthropic';
import { REPO_ROOT, copyFixture, ensureCliBuilt, removeDir, runCli, traceEvents } from '../support/cli-harness';

const SOURCE = 'src/Calculator/Calculator.cs';
const EVERYTHING = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const ECHO = 'mcp__everything__echo';
/** Not marked read-only by its server: it has side effects, so it follows the approval setting. */
const TOGGLE = 'mcp__everything__toggle-simulated-logging';

const PLAN = {
  spec: 'Calc.Divide returns the quotient a / b; Divide_ReturnsQuotient passes and no other test breaks.',
  plan: {
    summary: 'Fix the wrong operator in Calc.Divide.',
    steps: [
      {
        number: 1,
        description: 'Return a / b instead of a * b',
        actionType: 'MODIFY',
        filePath: SOURCE,
        rationale: 'The test expects 6 / 3 = 2',
      },
    ],
    affectedFiles: [SOURCE],
    complexity: 'LOW',
  },
};

interface ToolResult {
  id: string;
  text: string;
  isError: boolean;
}

/** The tool_result blocks of the last message of a request (the answers to the previous turn). */
function lastResults(request: FakeRequest): ToolResult[] {
  const last = request.body.messages.at(-1);
  if (!last || typeof last.content === 'string') return [];
  return last.content
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({
      id: String(block.tool_use_id),
      text: typeof block.content === 'string' ? block.content : JSON.stringify(block.content),
      isError: block.is_error === true,
    }));
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
}

/** A workspace planner: the bundled one, plus the MCP tools it may call. */
function overridePlanner(workspace: string, extraTools: readonly string[]): void {
  const dir = path.join(workspace, '.ironbees', 'agents', 'planner');
  mkdirSync(dir, { recursive: true });
  const bundled = readFileSync(path.join(REPO_ROOT, 'agents', 'planner', 'agent.yaml'), 'utf8');
  const yaml = bundled.replace(/requiredTools:\n/, `requiredTools:\n${extraTools.map((tool) => `  - ${tool}\n`).join('')}`);
  assert.notEqual(yaml, bundled, 'the bundled planner lists requiredTools');
  writeFileSync(path.join(dir, 'agent.yaml'), yaml);
  writeFileSync(path.join(dir, 'prompt.md'), readFileSync(path.join(REPO_ROOT, 'agents', 'planner', 'prompt.md')));
}

function coderFixes(): FakeTurn[] {
  return [
    toolUse('str_replace_based_edit_tool', { command: 'str_replace', path: SOURCE, old_str: 'return a * b;', new_str: 'return a / b;' }),
    toolUse('submit_changes', { summary: 'Divide now divides.' }),
  ];
}

describe('an agent run using a tool from a configured MCP server (real CLI, dotnet, SDK, MCP server)', function () {
  this.timeout(420_000);
  let fake: FakeAnthropic;
  let workspace: string;
  let env: Record<string, string>;

  before(() => ensureCliBuilt());
  beforeEach(async () => {
    fake = await startFakeAnthropic();
    workspace = copyFixture('calculator');
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url };
  });
  afterEach(async () => {
    await fake.close();
    removeDir(workspace);
  });

  it('the planner calls server-everything (echo answered by the server; a tool with side effects refused by the person), then plan → fix → SUCCESS', async () => {
    writeJson(path.join(workspace, '.ironbees', 'mcp.json'), {
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
    });
    overridePlanner(workspace, [ECHO, TOGGLE]);
    let echoResult: ToolResult | undefined;
    let toggleResult: ToolResult | undefined;
    fake.enqueue(
      toolUse(ECHO, { message: 'ping from the planner' }, { id: 'call_echo' }),
      (request) => {
        echoResult = lastResults(request).find((r) => r.id === 'call_echo');
        return toolUse(TOGGLE, {}, { id: 'call_toggle' });
      },
      (request) => {
        toggleResult = lastResults(request).find((r) => r.id === 'call_toggle');
        return toolUse('submit_plan', PLAN);
      },
      ...coderFixes(),
    );

    // Answers, in the order asked: the tool call (no, with a reason), the plan, the diffs.
    const result = await runCli(
      ['run', 'Fix the failing Calculator test', '--workspace', workspace, '--json', '--trust-workspace'],
      env,
      'n\nnot during tests\na\na\n',
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(fake.pending, 0, 'every scripted answer was used');
    assert.equal(result.states.at(-1)?.currentNode, 'SUCCESS');
    assert.match(readFileSync(path.join(workspace, SOURCE), 'utf8'), /return a \/ b;/);

    const offered = fake.requests[0].body.tools ?? [];
    const echo = offered.find((tool) => tool.name === ECHO);
    assert.ok(echo, `the planner is offered ${ECHO}; it got ${offered.map((t) => t.name).join(', ')}`);
    assert.match(String(echo.description), /from the MCP server "everything"/);
    assert.ok(
      !fake.requests.at(-1)?.body.tools?.some((tool) => tool.name === ECHO),
      'the coder, which does not list it, is not offered it',
    );

    assert.ok(echoResult, 'the echo call was answered');
    assert.equal(echoResult.isError, false, echoResult.text);
    assert.match(echoResult.text, /Echo: ping from the planner/, 'the content came from the MCP server');

    assert.ok(toggleResult?.isError, 'the call with side effects was refused');
    assert.match(toggleResult.text, /was not approved: not during tests/);
    assert.match(result.stderr, /wants to call mcp__everything__toggle-simulated-logging/);

    const calls = traceEvents(workspace, result.states[0].stateId).filter((e) => e.kind === 'tool_call');
    assert.ok(
      calls.some((e) => e.tool === ECHO && e.ok === true),
      'the MCP call is on the trace',
    );
  });

  it('a configured server that cannot start does not touch a run that does not need it', async () => {
    writeJson(path.join(workspace, '.ironbees', 'mcp.json'), {
      mcpServers: { broken: { command: path.join(workspace, 'no-such-mcp-server'), args: ['--never'] } },
    });
    fake.enqueue(toolUse('submit_plan', PLAN), ...coderFixes());

    const result = await runCli(
      ['run', 'Fix the failing Calculator test', '--workspace', workspace, '--yes', '--json', '--trust-workspace'],
      env,
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.states.at(-1)?.currentNode, 'SUCCESS');
    assert.doesNotMatch(result.stderr, /broken|no-such-mcp-server/, 'the broken server was never started');
  });
});
