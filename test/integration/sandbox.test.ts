// Model-written code runs in a sandbox (issue 26), proven with real dotnet and real bubblewrap: by
// default on Linux a test cannot reach a listener on the host's 127.0.0.1, cannot write into the home
// folder and cannot read a secret there, each refusal named in the result, while the same solution's
// ordinary tests pass. With the sandbox off the very same probes get through (so the probes are not
// blind), and `--sandbox on` without bubblewrap is exit 2. One fixture copy, one build.

import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { homedir, tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { captureBaseline } from '../../src/core/dotnet/validator';
import type { Baseline } from '../../src/core/model';
import { shutdownBuildServers } from '../../src/core/dotnet/dotnet-cli';
import { loadProjectGraph } from '../../src/core/dotnet/project-graph';
import { findBuildTarget } from '../../src/core/dotnet/target';
import { runTests } from '../../src/core/dotnet/test';
import { HOME_NOTE, NETWORK_NOTE, WRITE_NOTE } from '../../src/core/dotnet/sandbox-refusals';
import { resetSandboxForTests, sandboxAvailability, setSandboxMode } from '../../src/core/platform/sandbox';
import { createNodeHost } from '../../src/host/node/index';
import { runCli } from '../../src/cli/app';
import { defaultCliDeps } from '../../src/cli/wiring';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'sandbox-probe');
const MARKER = 'IRONBEES-SECRET-MARKER-7f3a91';
const quietLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function failureOf(baseline: Baseline, name: string): string {
  const failure = baseline.test?.failures.find((one) => one.testName.endsWith(`.${name}`));
  assert.ok(failure, `${name} did not fail: ${JSON.stringify(baseline.test?.failures.map((one) => one.testName))}`);
  return failure.message;
}

describe('the sandbox: model-written tests run with no network, no writes outside, no secrets (real dotnet, real bwrap)', function () {
  this.timeout(600_000);
  const saved = new Map<string, string | undefined>();
  let home = '';
  let workspace = '';
  let server: net.Server;
  let connections = 0;

  before(async function () {
    if (process.platform !== 'linux' || !sandboxAvailability().available) this.skip();
    // A HOME of the test's own, outside /tmp (the sandbox gives /tmp a private folder, which would hide it anyway).
    home = mkdtempSync(path.join('/var/tmp', 'ironbees-sandbox-home-'));
    mkdirSync(path.join(home, '.ssh'));
    writeFileSync(path.join(home, '.ssh', 'id_rsa'), `-----BEGIN OPENSSH PRIVATE KEY-----\n${MARKER}\n-----END OPENSSH PRIVATE KEY-----\n`);
    workspace = mkdtempSync(path.join(tmpdir(), 'ironbees-sandbox-ws-'));
    cpSync(FIXTURE, workspace, { recursive: true });
    server = net.createServer((socket) => {
      connections += 1;
      socket.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    // The person's package cache stays where it is (no fresh extraction into the temporary HOME).
    const packages = process.env.NUGET_PACKAGES ?? path.join(homedir(), '.nuget', 'packages');
    for (const [name, value] of Object.entries({ HOME: home, NUGET_PACKAGES: packages, IRONBEES_SANDBOX_PROBE_PORT: String(port) })) {
      saved.set(name, process.env[name]);
      process.env[name] = value;
    }
    resetSandboxForTests();
    setSandboxMode('auto');
  });

  after(async () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    setSandboxMode('auto');
    resetSandboxForTests();
    server?.close();
    if (workspace) {
      await shutdownBuildServers(createNodeHost(workspace, { logger: quietLogger }));
      rmSync(workspace, { recursive: true, force: true });
    }
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('by default: the ordinary tests pass; the listener gets no connection, HOME no file, the secret stays unread, each refusal named', async () => {
    const host = createNodeHost(workspace, { logger: quietLogger });
    const baseline = await captureBaseline({ host, timeouts: { buildMs: 300_000, testMs: 180_000 } });
    assert.equal(baseline.build.success, true, JSON.stringify(baseline.build));
    const test = baseline.test;
    assert.deepEqual([test?.total, test?.passed, test?.failed], [7, 4, 3], JSON.stringify(test?.failures));
    assert.deepEqual(test?.failures.map((one) => one.testName.split('.').pop()).sort(), [
      'ConnectsToTheHostListener',
      'ReadsASecret',
      'WritesIntoTheHomeFolder',
    ]);

    assert.equal(connections, 0);
    assert.ok(
      failureOf(baseline, 'ConnectsToTheHostListener').startsWith(`${NETWORK_NOTE}\n`),
      failureOf(baseline, 'ConnectsToTheHostListener'),
    );

    assert.equal(existsSync(path.join(home, '.bashrc-ironbees-probe')), false);
    assert.ok(failureOf(baseline, 'WritesIntoTheHomeFolder').startsWith(`${WRITE_NOTE}\n`), failureOf(baseline, 'WritesIntoTheHomeFolder'));

    assert.ok(failureOf(baseline, 'ReadsASecret').startsWith(`${HOME_NOTE}\n`), failureOf(baseline, 'ReadsASecret'));
    assert.equal(JSON.stringify(baseline).includes(MARKER), false);
  });

  it('--sandbox off: the same tests reach the listener, write into HOME and read the secret (as before the sandbox)', async () => {
    setSandboxMode('off');
    const host = createNodeHost(workspace, { logger: quietLogger });
    const graph = await loadProjectGraph(host, await findBuildTarget(host));
    const run = await runTests({ host, projects: graph.projects.filter((project) => project.isTest), timeoutMs: 180_000 });
    assert.deepEqual([run.result.total, run.result.passed, run.result.failed], [7, 6, 1], JSON.stringify(run.result.failures));
    assert.equal(connections, 1);
    assert.equal(existsSync(path.join(home, '.bashrc-ironbees-probe')), true);
    const [failure] = run.result.failures;
    assert.ok(failure?.message.includes(`read the secret: -----BEGIN OPENSSH PRIVATE KEY-----\n${MARKER}`), failure?.message);
    assert.equal(failure?.message.includes('[sandbox]'), false);
    setSandboxMode('auto');
  });

  it('--sandbox on where bubblewrap is missing: exit 2 and the reason, before anything is built', async () => {
    const stderr: string[] = [];
    const io = {
      stdout: new PassThrough(),
      stderr: new Writable({ write: (chunk: Buffer, _encoding, done) => done(void stderr.push(chunk.toString())) }),
      stdin: new PassThrough(),
      env: { ...process.env, IRONBEES_BWRAP: path.join(workspace, 'no-such-bwrap') },
      cwd: workspace,
    };
    resetSandboxForTests();
    const code = await runCli(['run', 'Fix it', '--demo', '--yes', '--sandbox', 'on', '-w', workspace], io, defaultCliDeps);
    resetSandboxForTests();
    assert.equal(code, 2);
    assert.match(stderr.join(''), /--sandbox on: no sandbox is available: bubblewrap \(.*no-such-bwrap\) is not installed/);
    assert.equal(existsSync(path.join(workspace, '.ironbees', 'runs')), false);
  });
});
