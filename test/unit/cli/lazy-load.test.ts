// What a CLI start loads: the command line (src/cli/app.ts, which reaches every command's code) and
// the model clients made for a run load neither model SDK, the MCP SDK nor OpenTelemetry. Those load
// with their first use: a call to the provider, `ironbees mcp`, an agent's MCP tool, an OTLP endpoint
// (their own suites prove they still work). Checked in a fresh process, whose require cache is its own.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..');

const PROBE = `
const { runCli } = require('./src/cli/app.ts');
const { createModelClient, createProviderRouter } = require('./src/core/runtime/model-client.ts');
const packagesLoaded = () => [...new Set(Object.keys(require.cache).map((file) => (/node_modules[\\\\/]((?:@[^\\\\/]+[\\\\/])?[^\\\\/]+)/.exec(file) || [])[1]).filter(Boolean))].sort();
(async () => {
  const io = { stdin: process.stdin, stdout: { write: () => true }, stderr: { write: () => true }, env: {}, onInterrupt: () => () => {}, exitNow: () => {} };
  await runCli(['--version'], io);
  createModelClient({ provider: 'demo' });
  createModelClient({ provider: 'anthropic', env: { ANTHROPIC_API_KEY: 'sk-probe-key-0123456789' } });
  createModelClient({ provider: 'openai', env: { OPENAI_BASE_URL: 'http://127.0.0.1:9' } });
  const router = createProviderRouter({ env: { ANTHROPIC_API_KEY: 'sk-probe-key-0123456789' }, logger: console });
  router.clientFor('anthropic');
  const atStart = packagesLoaded();
  // A call loads the SDK (a call already cancelled: nothing is sent).
  await createModelClient({ provider: 'openai', env: { OPENAI_BASE_URL: 'http://127.0.0.1:9' } })
    .complete({ model: 'm', system: '', messages: [{ role: 'user', content: 'hi' }], tools: [], maxTokens: 8, signal: AbortSignal.abort() })
    .catch(() => {});
  process.stdout.write(JSON.stringify({ atStart, afterCall: packagesLoaded() }));
  process.exit(0);
})();
`;

// The built command (npm run build): which of Node's own modules its start loads. Under tsx the loader
// thread itself loads node:worker_threads, so this looks at dist/cli.js in a plain node.
const BUILTINS_PROBE = `
const cli = require('node:path').join(process.cwd(), 'dist', 'cli.js');
process.argv = [process.argv[0], cli, '--version'];
process.on('exit', () => require('node:fs').writeSync(2, 'LOADED ' + JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13))) + '\\n'));
require(cli);
`;

describe('CLI start-up loads no heavy SDK', function () {
  this.timeout(120_000);

  it('loads the model SDKs, MCP and OpenTelemetry only when used', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', PROBE], { cwd: REPO, encoding: 'utf8', timeout: 110_000 });
    assert.equal(result.status, 0, result.stderr);
    const { atStart, afterCall } = JSON.parse(result.stdout) as { atStart: string[]; afterCall: string[] };
    const heavy = (loaded: string[]) =>
      loaded.filter((name) => /^(@anthropic-ai\/sdk|openai|@modelcontextprotocol\/sdk|@opentelemetry\/.*)$/.test(name));
    assert.deepEqual(heavy(atStart), []);
    assert.ok(atStart.includes('xstate') && atStart.includes('fast-xml-parser'), `the probe sees bundled packages: ${atStart.join(', ')}`);
    assert.deepEqual(heavy(afterCall), ['openai']);
  });

  it('the built CLI starts without node:worker_threads or node:readline (a regex search, a question, the C# engine load them)', () => {
    const env = { ...process.env, IRONBEES_CODE_CACHE: '0' };
    const result = spawnSync(process.execPath, ['-e', BUILTINS_PROBE], { cwd: REPO, env, encoding: 'utf8', timeout: 60_000 });
    assert.equal(result.status, 0, result.stderr);
    const loaded = JSON.parse(/^LOADED (.*)$/m.exec(result.stderr)?.[1] ?? '[]') as string[];
    assert.ok(
      loaded.includes('child_process') && loaded.includes('fs/promises'),
      `the probe sees what the bundle loads: ${loaded.join(', ')}`,
    );
    assert.deepEqual(
      loaded.filter((name) => ['worker_threads', 'readline', 'readline/promises'].includes(name)),
      [],
    );
  });

  // esbuild names each module it wraps ("node_modules/zod/…", or "../x/node_modules/zod/…" through a linked node_modules).
  const modulesOf = (pkg: string): string[] =>
    readFileSync(path.join(REPO, 'dist', 'cli-main.js'), 'latin1').match(new RegExp(`"[^"\\n]*node_modules/${pkg}/[^"\\n]*"`, 'g')) ?? [];

  it('the CLI bundle holds one copy of zod, its ES build (npm run build)', () => {
    const zod = modulesOf('zod');
    assert.ok(
      zod.some((name) => name.endsWith('/v4/classic/external.js"')),
      `zod is in dist/cli-main.js: ${zod.length} modules`,
    );
    assert.deepEqual(
      zod.filter((name) => name.endsWith('.cjs"')),
      [],
    );
    assert.deepEqual(
      zod.filter((name, i) => zod.indexOf(name) !== i),
      [],
      'each zod module once',
    );
  });
});
