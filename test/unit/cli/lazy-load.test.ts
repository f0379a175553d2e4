// What a CLI start loads: the command line (src/cli/app.ts, which reaches every command's code) and
// the model clients made for a run load neither model SDK, the MCP SDK, OpenTelemetry nor zod. Those load
// with their first use: a call to the provider, `ironbees mcp`, an agent's MCP tool, an OTLP endpoint
// (their own suites prove they still work). Checked in a fresh process, whose require cache is its own.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { precheckAgentFolder } from '../../../src/core/agents/agent-precheck';

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

// A start with the bundled agents checked at build time (what dist/cli-main.js carries): loading them
// reads no YAML and builds no agent schema; a workspace agent of its own text still loads both.
const AGENTS_PROBE = `
const { addPrecheckedAgents } = require('./src/core/agents/prechecked-agents.ts');
const { loadAgents } = require('./src/core/agents/loader.ts');
const { createDefaultToolRegistry } = require('./src/core/agents/builtin.ts');
const fs = require('node:fs'), os = require('node:os'), path = require('node:path');
const slowPath = () => Object.keys(require.cache).filter((file) => /node_modules[\\/]yaml[\\/]|agent-schema\\.ts$|agent-yaml\\.ts$/.test(file)).length > 0;
(async () => {
  addPrecheckedAgents(JSON.parse(process.env.PRECHECKED));
  const knownTools = createDefaultToolRegistry().names();
  const workspaceRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-lazy-'));
  const bundled = [...(await loadAgents({ bundledDir: path.resolve('agents'), workspaceRoot, knownTools })).keys()].sort();
  const atStart = slowPath();
  const own = path.join(workspaceRoot, '.ironbees', 'agents', 'coder');
  fs.mkdirSync(own, { recursive: true });
  fs.writeFileSync(path.join(own, 'agent.yaml'), 'name: coder\\ndescription: own\\nversion: 1.0.0\\nrequiredTools: [submit_changes]\\n');
  fs.writeFileSync(path.join(own, 'prompt.md'), 'p');
  const coder = (await loadAgents({ bundledDir: path.resolve('agents'), workspaceRoot, knownTools })).get('coder').description;
  fs.rmSync(workspaceRoot, { recursive: true, force: true });
  process.stdout.write(JSON.stringify({ bundled, atStart, coder, afterOwn: slowPath() }));
  process.exit(0);
})();
`;

// A start builds no tool input schema (zod, a few milliseconds): every built-in tool reads its schema
// through a getter that makes it on first use; the warm-up during the baseline (prepareModelTools) makes
// them all, the planner's plan schema with its step schema included.
const SCHEMAS_PROBE = `
const { runCli } = require('./src/cli/app.ts');
const { createDefaultToolRegistry } = require('./src/core/agents/builtin.ts');
const { lazySchemasMade } = require('./src/core/lazy-schema.ts');
(async () => {
  const io = { stdin: process.stdin, stdout: { write: () => true }, stderr: { write: () => true }, env: {}, onInterrupt: () => () => {}, exitNow: () => {} };
  await runCli(['--version'], io);
  const registry = createDefaultToolRegistry();
  const names = registry.names();
  const eager = names.filter((name) => typeof Object.getOwnPropertyDescriptor(registry.get(name), 'input')?.get !== 'function');
  const atStart = lazySchemasMade();
  registry.prepareModelTools(names);
  const prepared = lazySchemasMade();
  registry.prepareModelTools(names);
  process.stdout.write(JSON.stringify({ tools: names.length, eager, atStart, prepared, again: lazySchemasMade() }));
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
    // zod too: the tools' schemas and zod itself load with a tool's first use (src/core/lazy-schema.ts).
    const heavy = (loaded: string[]) => loaded.filter((name) => /^(@anthropic-ai\/sdk|openai|@modelcontextprotocol\/sdk|@opentelemetry\/.*|zod)$/.test(name));
    assert.deepEqual(heavy(atStart), []);
    assert.ok(atStart.includes('xstate') && atStart.includes('fast-xml-parser'), `the probe sees bundled packages: ${atStart.join(', ')}`);
    assert.deepEqual(heavy(afterCall), ['openai']);
  });

  it('loads the bundled agents checked at build time without the YAML parser or the agent schema', () => {
    const env = { ...process.env, PRECHECKED: JSON.stringify(precheckAgentFolder(path.join(REPO, 'agents'))) };
    const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', AGENTS_PROBE], { cwd: REPO, env, encoding: 'utf8', timeout: 110_000 });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { bundled: ['coder', 'planner', 'validator'], atStart: false, coder: 'own', afterOwn: true });
  });

  it('builds no tool input schema at start; the warm-up builds each once', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', SCHEMAS_PROBE], { cwd: REPO, encoding: 'utf8', timeout: 110_000 });
    assert.equal(result.status, 0, result.stderr);
    // 9 tools, 11 schemas: submit_plan's input holds the plan schema, which holds the step schema.
    assert.deepEqual(JSON.parse(result.stdout), { tools: 9, eager: [], atStart: 0, prepared: 11, again: 11 });
  });

  it('the built CLI starts without node:worker_threads, node:readline or node:crypto (a regex search, a question, the C# engine, a hash load them)', () => {
    const env = { ...process.env, IRONBEES_CODE_CACHE: '0' };
    const result = spawnSync(process.execPath, ['-e', BUILTINS_PROBE], { cwd: REPO, env, encoding: 'utf8', timeout: 60_000 });
    assert.equal(result.status, 0, result.stderr);
    const loaded = JSON.parse(/^LOADED (.*)$/m.exec(result.stderr)?.[1] ?? '[]') as string[];
    assert.ok(loaded.includes('child_process') && loaded.includes('fs/promises'), `the probe sees what the bundle loads: ${loaded.join(', ')}`);
    // node:crypto is ~5 ms of a start; the warm-up beside the baseline's build loads it (lazy-crypto.ts).
    assert.deepEqual(loaded.filter((name) => ['worker_threads', 'readline', 'readline/promises', 'crypto'].includes(name)), []);
  });

  // esbuild names each module it wraps ("node_modules/zod/…", or "../x/node_modules/zod/…" through a linked node_modules).
  const SIDE_BUNDLES = ['cli-anthropic', 'cli-mcp', 'cli-openai', 'cli-otel', 'cli-otel-api', 'cli-yaml', 'cli-zod'];
  const builtFile = (file: string) => readFileSync(path.join(REPO, 'dist', file), 'latin1');
  const modulesOf = (file: string, pkg: string): string[] => builtFile(file).match(new RegExp(`"[^"\\n]*node_modules/${pkg}/[^"\\n]*"`, 'g')) ?? [];
  /** The entries of `bundle` that the main bundle and the other side bundles require. */
  const entriesServedBy = (bundle: string): string[] => [
    ...new Set(
      ['cli-main', ...SIDE_BUNDLES].flatMap((file) =>
        [...builtFile(`${file}.js`).matchAll(new RegExp(`require\\("\\./${bundle}\\.js"\\)\\["([^"]+)"\\]`, 'g'))].map((match) => match[1]),
      ),
    ),
  ].sort();
  const sideBundle = (bundle: string) => createRequire(__filename)(path.join(REPO, 'dist', `${bundle}.js`)) as Record<string, Record<string, unknown>>;

  it('the CLI keeps zod in its own bundle beside the main one: one copy, its ES build, reached only by require (npm run build)', () => {
    for (const file of ['cli-main', ...SIDE_BUNDLES.filter((bundle) => bundle !== 'cli-zod')]) {
      assert.deepEqual(modulesOf(`${file}.js`, 'zod'), [], `no zod module in dist/${file}.js`);
    }
    const beside = modulesOf('cli-zod.js', 'zod');
    assert.ok(beside.some((name) => name.endsWith('/v4/classic/external.js"')), `zod is in dist/cli-zod.js: ${beside.length} modules`);
    // A require('zod') left to esbuild's default would add zod's .cjs files.
    assert.deepEqual(beside.filter((name) => name.endsWith('.cjs"')), []);
    assert.deepEqual(beside.filter((name, i) => beside.indexOf(name) !== i), [], 'each zod module once');
    // Every zod entry the CLI uses is a property of the one side bundle (the MCP SDK's v3 and mini too).
    assert.deepEqual(entriesServedBy('cli-zod'), ['zod', 'zod/v3', 'zod/v4', 'zod/v4-mini']);
    const side = sideBundle('cli-zod');
    assert.deepEqual(Object.keys(side).sort(), entriesServedBy('cli-zod'));
    assert.equal(side.zod.z, side['zod/v4'].z, "'zod' and 'zod/v4' are one zod");
  });

  it('the CLI keeps the model SDKs, MCP, OpenTelemetry and YAML each in one bundle beside the main one, reached only by require (npm run build)', () => {
    const packages: Array<[string, string]> = [
      ['cli-anthropic', '@anthropic-ai/sdk'],
      ['cli-openai', 'openai'],
      ['cli-mcp', '@modelcontextprotocol/sdk'],
      ['cli-otel', '@opentelemetry/sdk-trace-base'],
      ['cli-otel-api', '@opentelemetry/api'],
      ['cli-yaml', 'yaml'],
    ];
    for (const [bundle, pkg] of packages) {
      for (const file of ['cli-main', ...SIDE_BUNDLES.filter((other) => other !== bundle)]) {
        assert.deepEqual(modulesOf(`${file}.js`, pkg), [], `no ${pkg} module in dist/${file}.js`);
      }
      const beside = modulesOf(`${bundle}.js`, pkg);
      assert.ok(beside.length > 5, `${pkg} is in dist/${bundle}.js: ${beside.length} modules`);
      assert.deepEqual(beside.filter((name, i) => beside.indexOf(name) !== i), [], `each ${pkg} module once`);
      const entries = entriesServedBy(bundle);
      assert.ok(entries.length > 0 && entries.every((entry) => entry.startsWith(bundle === 'cli-otel' ? '@opentelemetry/' : pkg)), `${bundle}: ${entries.join(', ')}`);
      assert.deepEqual(Object.keys(sideBundle(bundle)).sort(), entries);
    }
    assert.equal(typeof sideBundle('cli-anthropic')['@anthropic-ai/sdk'].Anthropic, 'function', 'the Anthropic client class');
    assert.equal(typeof sideBundle('cli-openai').openai.default, 'function', 'the OpenAI client class');
  });
});
