// Credentials stay with Ironbees (issue 9, item 1), proven on real children: a real `dotnet test` of
// a fixture whose tests read the environment, and a real MCP stdio server that reports its own.
// The variables are set in THIS process, as a person's shell would set them, and must not arrive.

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { captureBaseline } from '../../src/core/dotnet/validator';
import { SECRET_NAMES_ENV } from '../../src/core/platform/child-env';
import { mcpServersFromSettings } from '../../src/core/mcp/config';
import { McpManager } from '../../src/core/mcp/manager';
import { shutdownBuildServers } from '../../src/core/dotnet/dotnet-cli';
import { ToolRegistry } from '../../src/core/tools/registry';
import { createNodeHost } from '../../src/host/node/index';
import { memoryHost, toolContext } from '../unit/tools/memory-host';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'env-probe');
const ENV_SERVER = path.join(__dirname, 'mcp-fixtures', 'env-server.mjs');
const quietLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** What a person's shell might hold: a credential of every provider, and one of their own. */
const CREDENTIALS: Record<string, string> = {
  ANTHROPIC_API_KEY: 'probe-anthropic-key-0001',
  ANTHROPIC_AUTH_TOKEN: 'probe-anthropic-token-0002',
  OPENAI_API_KEY: 'probe-openai-key-0003',
  AZURE_OPENAI_API_KEY: 'probe-azure-key-0004',
  AWS_ACCESS_KEY_ID: 'probe-aws-id-0005',
  AWS_SECRET_ACCESS_KEY: 'probe-aws-secret-0006',
  AWS_SESSION_TOKEN: 'probe-aws-session-0007',
  GOOGLE_APPLICATION_CREDENTIALS: '/probe/google-credentials.json',
  GOOGLE_API_KEY: 'probe-google-key-0009',
  GEMINI_API_KEY: 'probe-gemini-key-0010',
  MY_COMPANY_TOKEN: 'probe-company-token-0011',
};
const CONTROL = { IRONBEES_ENV_PROBE_CONTROL: 'present' };

describe('child processes get no model credentials', function () {
  this.timeout(300_000);
  const saved = new Map<string, string | undefined>();

  before(() => {
    for (const [name, value] of Object.entries({ ...CREDENTIALS, ...CONTROL, [SECRET_NAMES_ENV]: 'MY_COMPANY_*' })) {
      saved.set(name, process.env[name]);
      process.env[name] = value;
    }
  });

  after(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('a real `dotnet test` sees none of the credential variables, and does see the control variable', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'ironbees-env-probe-'));
    const host = createNodeHost(root, { logger: quietLogger });
    try {
      cpSync(FIXTURE, root, { recursive: true });
      const baseline = await captureBaseline({ host, timeouts: { buildMs: 240_000, testMs: 120_000 } });
      assert.equal(baseline.build.success, true, JSON.stringify(baseline.build.errors));
      // Each failure message names the variable that reached the test and its value.
      assert.deepEqual(
        baseline.test?.failures.map((failure) => `${failure.testName}: ${failure.message}`),
        [],
      );
      assert.deepEqual([baseline.test?.total, baseline.test?.passed, baseline.test?.failed], [12, 12, 0]);
    } finally {
      await shutdownBuildServers(host);
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('an MCP stdio server gets no credential, except one its config names in `env`', async () => {
    const host = memoryHost();
    const servers = mcpServersFromSettings({
      env: { command: process.execPath, args: [ENV_SERVER], env: { OPENAI_API_KEY: 'named-on-purpose', PROBE_SETTING: 'from-config' } },
    });
    const manager = new McpManager({ servers, logger: host.logger });
    try {
      const registry = new ToolRegistry().addSource(manager);
      const [tool] = await registry.forAgentAsync(['mcp__env__environment']);
      const outcome = await registry.execute(tool, {}, toolContext(host));
      assert.ok(outcome.ok, JSON.stringify(outcome));
      const seen = JSON.parse(outcome.content) as Record<string, string>;
      const leaked = Object.keys(CREDENTIALS).filter((name) => name !== 'OPENAI_API_KEY' && name in seen);
      assert.deepEqual(leaked, []);
      assert.equal(seen.OPENAI_API_KEY, 'named-on-purpose');
      assert.equal(seen.PROBE_SETTING, 'from-config');
      assert.equal(seen.PATH, process.env.PATH);
    } finally {
      await manager.close();
    }
  });
});
