// The Windows and macOS CI workflow parses, runs on both, and runs the checks and suites by the
// package.json scripts that exist; `.gitattributes` keeps LF in every checkout (bash scripts break on CRLF).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

const REPO = path.resolve(__dirname, '..', '..', '..');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { 'runs-on': string; strategy: { matrix: { os: string[] } }; steps: Step[] }>;
}

describe('.github/workflows/portability.yml', () => {
  const workflow = parse(readFileSync(path.join(REPO, '.github', 'workflows', 'portability.yml'), 'utf8'), {
    strict: true,
    uniqueKeys: true,
  }) as Workflow;
  const job = workflow.jobs.test;

  it('runs on windows-latest and macos-latest', () => {
    assert.deepEqual(job.strategy.matrix.os, ['windows-latest', 'macos-latest']);
    assert.equal(job['runs-on'], '${{ matrix.os }}');
    assert.deepEqual(Object.keys(workflow.on), ['push', 'pull_request', 'workflow_dispatch']);
  });

  it('installs Node and .NET, then runs build, typecheck, lint, unit and integration', () => {
    assert.deepEqual(
      job.steps.filter((step) => step.uses).map((step) => step.uses),
      ['actions/checkout@v4', 'actions/setup-node@v4', 'actions/setup-dotnet@v4'],
    );
    assert.deepEqual(
      job.steps.filter((step) => step.run).map((step) => step.run),
      [
        'npm ci --no-audit --no-fund',
        'npm run build',
        'npm run typecheck',
        'npm run lint',
        'npm run test:unit',
        'npm run test:integration',
      ],
    );
  });

  it('names only package.json scripts that exist', () => {
    const scripts = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const named = job.steps.flatMap((step) => /^npm run (\S+)$/.exec(step.run ?? '')?.[1] ?? []);
    assert.deepEqual(
      named.filter((name) => !(name in scripts)),
      [],
    );
  });
});

describe('.gitattributes', () => {
  it('checks out the bash scripts and every text file with LF, the screenshots as binary', () => {
    const files = ['.ci/run', 'test/support/fault-matrix/fake-dotnet.sh', 'scripts/serve.mjs', 'src/core/model.ts', 'README.md'];
    const eol = execFileSync('git', ['check-attr', 'eol', '--', ...files], { cwd: REPO, encoding: 'utf8' });
    assert.deepEqual(
      eol.trim().split('\n'),
      files.map((file) => `${file}: eol: lf`),
    );
    const png = execFileSync('git', ['check-attr', 'binary', '--', 'media/screenshots/01-command-palette.png'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    assert.equal(png.trim(), 'media/screenshots/01-command-palette.png: binary: set');
  });
});
