// The recipes hold (CONTRIBUTING.md, "Add a workflow state" and "Add an agent"): in a temp copy of the
// repository a toy agent and a toy state are added by the recipes' steps, touching the files the
// recipes name and nothing else (recipe/toy.ts), plus the agent's own new test. The copy type-checks
// and the suites that guard the recipes pass; with a step left out, they fail.

import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REPO, copyForRecipe } from './recipe/copy';
import { AGENT, OWN_TEST, RECIPE_STEPS } from './recipe/toy';

/** The suites that hold the recipes: the node table, the agent table, agents as units, the loader. */
const SUITES = [
  'test/unit/architecture/node-table.test.ts',
  'test/unit/architecture/recipes.test.ts',
  'test/unit/agents/agent-unit.test.ts',
  'test/unit/agents/loader.test.ts',
];

interface Ran {
  code: number | null;
  output: string;
}

function run(cwd: string, args: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: process.env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Mocha on `files` in the copy; the titles of the tests that failed. */
async function failingTests(root: string, files: readonly string[]): Promise<{ ran: Ran; failed: string[]; passed: number }> {
  const report = path.join(root, 'mocha-report.json');
  await fs.rm(report, { force: true });
  const ran = await run(root, [
    path.join('node_modules', 'mocha', 'bin', 'mocha.js'),
    '--reporter',
    'json',
    '--reporter-option',
    `output=${report}`,
    ...files,
  ]);
  assert.ok(existsSync(report), `mocha wrote no report:\n${ran.output}`);
  const json = JSON.parse(readFileSync(report, 'utf8')) as { stats: { passes: number }; failures: Array<{ fullTitle: string }> };
  return { ran, failed: json.failures.map((failure) => failure.fullTitle), passed: json.stats.passes };
}

/** The files the recipes' numbered steps name (`<name>` as the toy agent), and docs/contracts.md, which both name. */
function recipeFiles(): string[] {
  const guide = readFileSync(path.join(REPO, 'CONTRIBUTING.md'), 'utf8');
  const section = (title: string): string => guide.split(`## ${title}`)[1]?.split('\n## ')[0] ?? '';
  const steps = ['Add a workflow state', 'Add an agent'].flatMap((title) =>
    [...section(title).matchAll(/^\d+\. `([^`]+)`/gm)].map((match) => match[1].replace('<name>', AGENT)),
  );
  return [...new Set([...steps, 'docs/contracts.md'])].sort();
}

describe('the recipes hold (a toy agent and state added in a temp copy)', function () {
  // A full type-check of the copy and four suites, several times: minutes on a small, busy machine.
  this.timeout(600_000);
  let root: string;
  const originals = new Map<string, string | null>();

  async function write(file: string, text: string | null): Promise<void> {
    const target = path.join(root, file);
    if (text === null) return fs.rm(target, { force: true });
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, text);
  }

  before(async () => {
    root = await copyForRecipe([...SUITES, 'test/unit/agents/agent-harness.ts']);
    for (const step of RECIPE_STEPS) {
      const file = path.join(root, step.file);
      const before = existsSync(file) ? readFileSync(file, 'utf8') : null;
      if (!originals.has(step.file)) originals.set(step.file, before);
      await write(step.file, step.edit(before));
    }
    await write(OWN_TEST.file, OWN_TEST.text);
  });

  after(async () => {
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  it('touches exactly the files the recipes name', () => {
    assert.deepEqual([...new Set(RECIPE_STEPS.map((step) => step.file))].sort(), recipeFiles());
  });

  it('type-checks (the panel too), and the recipes’ suites and the agent’s own test pass', async () => {
    const tsc = await run(root, [path.join('node_modules', 'typescript', 'bin', 'tsc'), '-p', '.', '--noEmit']);
    assert.equal(tsc.code, 0, `tsc in the copy:\n${tsc.output}`);
    const panel = await run(root, [path.join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'webview-ui', '--noEmit']);
    assert.equal(panel.code, 0, `tsc -p webview-ui in the copy:\n${panel.output}`);
    const { ran, failed, passed } = await failingTests(root, [...SUITES, OWN_TEST.file]);
    assert.deepEqual(failed, [], ran.output);
    assert.ok(passed >= 10, `${passed} tests passed`);
  });

  // Each left-out step, and a test that then fails (the others may fail too).
  const LEFT_OUT: ReadonlyArray<{ file: string; fails: string }> = [
    {
      file: 'src/core/agents/builtin.ts',
      fails: 'the recipes agree every registered agent unit is bundled; the validator alone is bundled without a unit (it calls no model)',
    },
    {
      file: 'src/core/workflow/machine.ts',
      fails: 'node table matches the statechart: the same nodes, and REQUEST_HELP exactly where the table allows help',
    },
    { file: 'docs/contracts.md', fails: 'node table declares every node once, in the public order' },
  ];
  for (const { file, fails } of LEFT_OUT) {
    it(`fails without the step on ${file}`, async () => {
      const done = readFileSync(path.join(root, file), 'utf8');
      await write(file, originals.get(file) ?? null);
      try {
        const { failed } = await failingTests(root, [...SUITES, OWN_TEST.file]);
        assert.ok(failed.includes(fails), `expected "${fails}" among the failures: ${JSON.stringify(failed)}`);
      } finally {
        await write(file, done);
      }
    });
  }

  it('does not type-check without the step on src/core/workflow/run-context.ts', async () => {
    const file = 'src/core/workflow/run-context.ts';
    const done = readFileSync(path.join(root, file), 'utf8');
    await write(file, originals.get(file) ?? null);
    try {
      const tsc = await run(root, [path.join('node_modules', 'typescript', 'bin', 'tsc'), '-p', '.', '--noEmit']);
      assert.notEqual(tsc.code, 0);
      assert.match(
        tsc.output,
        /src\/core\/workflow\/machine\.ts\(\d+,\d+\): error TS2305: Module '".\/run-context"' has no exported member 'NoteInput'/,
      );
    } finally {
      await write(file, done);
    }
  });

  it('scaffolds a new agent folder, not an existing one', () => {
    assert.equal(originals.get(`agents/${AGENT}/agent.yaml`), null);
    assert.equal(originals.get(`src/core/agents/${AGENT}/runner.ts`), null);
  });
});
