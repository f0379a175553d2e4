// Redaction is value-based and central (issue 9, item 9): a secret that looks nothing like an
// Anthropic key is masked in every place text leaves Ironbees for a person or a file.

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { writeJsonLine, writeLine } from '../../../src/cli/terminal';
import { runToolLoop } from '../../../src/core/agents/tool-loop';
import { submitChangesTool } from '../../../src/core/agents/coder/terminal-tool';
import type { CodingState } from '../../../src/core/model';
import { ScriptedModelClient, modelTurn, toolUseBlock } from '../../../src/core/llm/scripted';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { ToolDefinition } from '../../../src/core/tools/types';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import { saveBaselineResults } from '../../../src/core/workflow/validation-results';
import { createMemoryHost } from '../../support/memory-host';
import { errorMessage } from '../../../src/core/errors';
import { mcpServersFromSettings } from '../../../src/core/mcp/config';
import { forgetSecret, redact, registerSecret } from '../../../src/core/redact';
import { RunStore } from '../../../src/core/workflow/store';
import { StderrLogger } from '../../../src/host/node/logger';
import { TempWorkspace } from '../workflow/temp-workspace';

/** A gateway token: no `sk-ant-` prefix, so only value-based redaction can catch it. */
const SECRET = 'gw-7Qm2Zr9LkV4xTp';

describe('redaction of configured secret values', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    registerSecret(SECRET);
    ws = new TempWorkspace();
  });
  afterEach(() => {
    forgetSecret(SECRET);
    ws.remove();
  });

  it('events.jsonl', async () => {
    const store = new RunStore(ws.host);
    await store.appendEvent('run-1', {
      kind: 'tool_call',
      at: '2025-01-01T00:00:00.000Z',
      agent: 'coder',
      tool: 'read_file',
      ok: false,
      durationMs: 1,
      error: `denied for ${SECRET}`,
    });
    assert.equal(
      ws.runFile('run-1', 'events.jsonl'),
      '{"seq":1,"kind":"tool_call","at":"2025-01-01T00:00:00.000Z","agent":"coder","tool":"read_file","ok":false,"durationMs":1,"error":"denied for [redacted]"}\n',
    );
  });

  it('HANDOFF.md', async () => {
    const store = new RunStore(ws.host);
    await store.writeHandoff('run-1', `# Hand-off\nThe build printed ${SECRET}.\n`);
    assert.equal(ws.runFile('run-1', 'HANDOFF.md'), '# Hand-off\nThe build printed [redacted].\n');
  });

  it("HANDOFF.md shows the model's control characters as text", async () => {
    const store = new RunStore(ws.host);
    await store.writeHandoff('run-1', '# Hand-off\nThe coder said \x1b]52;c;Y2xpcA==\x07 and \x1b[2J.\r\n');
    assert.equal(ws.runFile('run-1', 'HANDOFF.md'), '# Hand-off\nThe coder said \\x1b]52;c;Y2xpcA==\\x07 and \\x1b[2J.\r\n');
  });

  it('the CLI log (stderr) and everything the CLI prints', () => {
    const lines: string[] = [];
    new StderrLogger({ write: (line) => lines.push(line), color: false, level: 'debug' }).error(`upstream said ${SECRET}`);
    assert.deepEqual(lines, ['[ironbees] error: upstream said [redacted]']);
    const out = new PassThrough();
    writeLine(out, `{"userRequest":"use ${SECRET}"}`);
    assert.equal(out.read().toString(), '{"userRequest":"use [redacted]"}\n');
  });

  it('--json stdout: strings are masked before serialising, so an escaped secret is found whole', () => {
    const quoted = 'tok"en\\with-escapes';
    registerSecret(quoted);
    try {
      const out = new PassThrough();
      writeJsonLine(out, { userRequest: `use ${SECRET}`, failures: [{ message: `got ${quoted}` }] });
      assert.equal(out.read().toString(), '{"userRequest":"use [redacted]","failures":[{"message":"got [redacted]"}]}\n');
    } finally {
      forgetSecret(quoted);
    }
  });

  it('state.json, keeping the bytes a staged edit writes', async () => {
    const store = new RunStore(ws.host);
    const edit = {
      filePath: 'a.cs',
      type: 'MODIFY',
      originalContent: `old ${SECRET}`,
      newContent: `new ${SECRET}`,
      diffText: `+new ${SECRET}`,
    };
    const codingState = { stateId: 'run-1', userRequest: `fix ${SECRET}`, codeDiffs: [edit] } as unknown as CodingState;
    await store.save({
      schemaVersion: 1,
      runId: 'run-1',
      createdAt: 'c',
      updatedAt: 'u',
      codingState,
      machine: { context: { errorContext: `printed ${SECRET}`, codeDiffs: [edit] } },
    });
    const saved = ws.state('run-1');
    assert.equal(saved.codingState.userRequest, 'fix [redacted]');
    assert.deepEqual(saved.machine, {
      context: { errorContext: 'printed [redacted]', codeDiffs: [{ ...edit, diffText: '+new [redacted]' }] },
    });
    assert.deepEqual(saved.codingState.codeDiffs, [{ ...edit, diffText: '+new [redacted]' }]);
  });

  it('validations/*.json', async () => {
    const store = new RunStore(ws.host);
    const failure = { testName: 'T.Leaks', message: `token ghp_Abc123Def456Ghi789Jkl012Mno345Pqr678 and ${SECRET}`, stackTrace: '' };
    const baseline = {
      build: null,
      test: { success: false, total: 1, passed: 0, failed: 1, skipped: 0, failures: [failure], durationMs: 1 },
    };
    await saveBaselineResults(ws.host, store, 'run-1', baseline as never);
    const written = JSON.parse(ws.runFile('run-1', 'validations/baseline.json') ?? '') as typeof baseline;
    assert.equal(written.test.failures[0].message, 'token [redacted] and [redacted]');
  });

  it('the model requests: the first message and every tool result', async () => {
    const host = createMemoryHost();
    const model = new ScriptedModelClient([
      modelTurn([toolUseBlock('leak', {}, 't1')]),
      modelTurn([toolUseBlock('submit_changes', { summary: 'done' }, 't2')]),
    ]);
    const leak: ToolDefinition<Record<string, never>> = {
      name: 'leak',
      description: 'Prints the test output',
      input: z.object({}),
      readonly: true,
      timeoutMs: 1000,
      execute: async () => ({ ok: true, content: `stdout: AKIAIOSFODNN7EXAMPLE ${SECRET}` }),
    };
    await runToolLoop<string>({
      agent: {
        name: 'tester',
        description: 't',
        version: '1',
        requiredTools: ['leak', 'submit_changes'],
        promptTemplate: 'prompt.md',
        llmConfig: { model: 'claude-haiku-4-5', maxTokens: 1000, temperature: 0 },
        toolConfig: { turnBudget: 4 },
        prompt: `System ${SECRET}`,
        sourceDir: '/agents/tester',
        origin: 'bundled',
      },
      runtime: { host, model, tools: new ToolRegistry().register(leak).register(submitChangesTool), agents: new Map() },
      toolContext: { host, overlay: new StagedOverlay(host) },
      userMessage: `The test printed ${SECRET}`,
      terminal: { name: 'submit_changes', accept: (input) => ({ ok: true, value: (input as { summary: string }).summary }) },
    });
    const sent = JSON.stringify(model.requests);
    assert.ok(!sent.includes(SECRET) && !sent.includes('AKIAIOSFODNN7EXAMPLE'), sent);
    assert.equal(model.requests[0].system, 'System [redacted]');
    assert.deepEqual(model.requests[0].messages[0], { role: 'user', content: 'The test printed [redacted]' });
    assert.match(JSON.stringify(model.requests[1].messages.at(-1)), /stdout: \[redacted\] \[redacted\]/);
  });

  it('error messages', () => {
    assert.equal(errorMessage(new Error(`401 for key ${SECRET}`)), '401 for key [redacted]');
    assert.equal(errorMessage(`thrown ${SECRET}`), 'thrown [redacted]');
  });

  it("an MCP server's Authorization header and secret env values, once its config is read", () => {
    const header = 'mcp-header-token-51f0c2';
    const envToken = 'mcp-env-token-8d31aa';
    assert.equal(redact(`${header} ${envToken}`), `${header} ${envToken}`);
    mcpServersFromSettings({
      api: {
        type: 'http',
        url: 'http://127.0.0.1:9/mcp',
        headers: { Authorization: `Bearer ${header}`, Accept: 'application/json, text/event-stream' },
      },
      docs: { command: 'docs-server', env: { DOCS_API_TOKEN: envToken, DOCS_PATH: '/srv/docs/library' } },
    });
    try {
      assert.equal(redact(`got ${header} and ${envToken} via Bearer ${header}`), 'got [redacted] and [redacted] via [redacted]');
      // Ordinary header and variable values stay readable.
      assert.equal(
        redact('application/json, text/event-stream at /srv/docs/library'),
        'application/json, text/event-stream at /srv/docs/library',
      );
    } finally {
      forgetSecret(header);
      forgetSecret(`Bearer ${header}`);
      forgetSecret(envToken);
    }
  });
});
