// The C# engine runs the repository's MSBuild (design-time builds): its process gets the one child
// environment of Ironbees, never this process's raw environment with the model credentials in it.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineProcess } from '../../../src/core/csharp/engine/engine-process';

const SECRETS: Record<string, string> = {
  ANTHROPIC_API_KEY: 'sk-ant-engine-probe-0123456789',
  OPENAI_API_KEY: 'openai-engine-probe-0123456789',
  AWS_SECRET_ACCESS_KEY: 'aws-engine-probe-0123456789',
};

describe('the C# engine child environment', function () {
  this.timeout(30_000);
  let dir: string;
  const saved = { ...process.env };

  before(function () {
    if (process.platform === 'win32') this.skip();
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-engine-env-'));
    // A stand-in for `dotnet`: it writes the environment it was given to the file named as the engine, then exits.
    fs.writeFileSync(path.join(dir, 'dotnet'), '#!/bin/sh\nenv > "$1.tmp" && mv "$1.tmp" "$1"\n', { mode: 0o755 });
    process.env.PATH = `${dir}${path.delimiter}${saved.PATH ?? ''}`;
    Object.assign(process.env, SECRETS, { IRONBEES_ENGINE_PROBE_VISIBLE: 'kept' });
  });
  afterEach(() => {
    for (const name of [...Object.keys(SECRETS), 'IRONBEES_ENGINE_PROBE_VISIBLE']) delete process.env[name];
    process.env.PATH = saved.PATH;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('has no model or cloud credential, and keeps the rest and its own settings', async () => {
    const out = path.join(dir, 'env.txt');
    const engine = new EngineProcess({ enginePath: out, cwd: dir, env: {} });
    // The stand-in exits at once: the request fails when the process ends, after it wrote the file.
    await assert.rejects(engine.request('ping', {}, 20_000));
    const env = fs.readFileSync(out, 'utf8');
    for (const [name, value] of Object.entries(SECRETS)) {
      assert.ok(!env.includes(value), `${name}'s value reached the engine`);
      assert.ok(!env.split('\n').some((line) => line.startsWith(`${name}=`)), `${name} reached the engine`);
    }
    assert.ok(env.split('\n').includes('IRONBEES_ENGINE_PROBE_VISIBLE=kept'));
    assert.ok(env.split('\n').includes('IRONBEES_ENGINE_CLIENT=1'));
    assert.ok(env.split('\n').includes('DOTNET_CLI_UI_LANGUAGE=en'));
  });
});
