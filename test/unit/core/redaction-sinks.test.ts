// Redaction is value-based and central (issue 9, item 9): a secret that looks nothing like an
// Anthropic key is masked in every place text leaves Ironbees for a person or a file.

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { writeLine } from '../../../src/cli/terminal';
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
    await store.appendEvent('run-1', { kind: 'tool_call', at: '2025-01-01T00:00:00.000Z', agent: 'coder', tool: 'read_file', ok: false, durationMs: 1, error: `denied for ${SECRET}` });
    assert.equal(ws.runFile('run-1', 'events.jsonl'), '{"seq":1,"kind":"tool_call","at":"2025-01-01T00:00:00.000Z","agent":"coder","tool":"read_file","ok":false,"durationMs":1,"error":"denied for [redacted]"}\n');
  });

  it('HANDOFF.md', async () => {
    const store = new RunStore(ws.host);
    await store.writeHandoff('run-1', `# Hand-off\nThe build printed ${SECRET}.\n`);
    assert.equal(ws.runFile('run-1', 'HANDOFF.md'), '# Hand-off\nThe build printed [redacted].\n');
  });

  it('the CLI log (stderr) and everything the CLI prints', () => {
    const lines: string[] = [];
    new StderrLogger({ write: (line) => lines.push(line), color: false, level: 'debug' }).error(`upstream said ${SECRET}`);
    assert.deepEqual(lines, ['[ironbees] error: upstream said [redacted]']);
    const out = new PassThrough();
    writeLine(out, `{"userRequest":"use ${SECRET}"}`);
    assert.equal(out.read().toString(), '{"userRequest":"use [redacted]"}\n');
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
      api: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: `Bearer ${header}`, Accept: 'application/json, text/event-stream' } },
      docs: { command: 'docs-server', env: { DOCS_API_TOKEN: envToken, DOCS_PATH: '/srv/docs/library' } },
    });
    try {
      assert.equal(redact(`got ${header} and ${envToken} via Bearer ${header}`), 'got [redacted] and [redacted] via [redacted]');
      // Ordinary header and variable values stay readable.
      assert.equal(redact('application/json, text/event-stream at /srv/docs/library'), 'application/json, text/event-stream at /srv/docs/library');
    } finally {
      forgetSecret(header);
      forgetSecret(`Bearer ${header}`);
      forgetSecret(envToken);
    }
  });
});
