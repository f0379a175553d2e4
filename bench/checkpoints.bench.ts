// Checkpoints and rewind on a large repository (issue 27): a generated workspace of 10,000 files,
// about 1 GB, and a run of several iterations that touches 3 of them (fake steps: no model, no
// dotnet; the edits go through the real journal, the checkpoints through the real store). Measured:
// what each checkpoint adds on disk against the size of the touched files, the time each checkpoint
// takes, and the time of `rewind iteration:1`. Goals: storage ≤ 2× the touched files per checkpoint,
// ≤ 50 ms per checkpoint, a rewind ≤ 200 ms. A checkpoint reads only the files the run touched, so
// none of these depend on the size of the repository.
// Run: node --import tsx bench/checkpoints.bench.ts   (IRONBEES_BENCH_FILES=N files, default 10000;
// IRONBEES_BENCH_REPO_MB=M total size, default 1000; IRONBEES_BENCH_ITERATIONS=N, default 5)

import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createNodeHost } from '../src/host/node';
import { makeFileEdit } from '../src/core/workspace/diff';
import { rewindRun } from '../src/core/workflow/rewind';
import { FakeSteps } from '../test/unit/workflow/fake-steps';
import { StateStream, orchestratorOver } from '../test/unit/workflow/orchestrator-harness';
import { baseline, codeOutput, failing, passing, planOutput, workflow } from '../test/unit/workflow/samples';

const FILES = Number(process.env.IRONBEES_BENCH_FILES ?? 10_000);
const REPO_MB = Number(process.env.IRONBEES_BENCH_REPO_MB ?? 1000);
const ITERATIONS = Number(process.env.IRONBEES_BENCH_ITERATIONS ?? 5);
const TOUCHED = ['src/Orders/OrderService.cs', 'src/Orders/OrderValidator.cs', 'tests/Orders.Tests/OrderServiceTests.cs'];

/** A C#-looking source file of about `bytes` bytes, its methods numbered from `seed`. */
function source(name: string, seed: number, bytes: number): string {
  const lines = [`namespace App.${name};`, '', `public class ${name}`, '{'];
  for (let i = 0; lines.join('\n').length < bytes; i++) {
    lines.push(`    public int Method${seed + i}(int value) => value * ${(seed + i) % 97} + ${i};`, '');
  }
  return `${lines.join('\n')}}\n`;
}

function generateRepository(dir: string): number {
  const perFile = Math.floor((REPO_MB * 1024 * 1024) / FILES);
  // One body written everywhere (the bytes on disk are what count), a header that makes each file its own.
  const body = Buffer.alloc(perFile, '// generated line of a large repository, never read by a checkpoint\n');
  let total = 0;
  for (let i = 0; i < FILES - TOUCHED.length; i++) {
    const folder = path.join(dir, 'src', `Module${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(folder, { recursive: true });
    const header = Buffer.from(`// File${i}.cs\n`);
    writeFileSync(path.join(folder, `File${i}.cs`), Buffer.concat([header, body]));
    total += header.length + body.length;
  }
  return total;
}

function dirBytes(dir: string): number {
  let sum = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    sum += entry.isDirectory() ? dirBytes(full) : statSync(full).size;
  }
  return sum;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ironbees-checkpoints-bench-'));
  try {
    const started = performance.now();
    const repoBytes = generateRepository(dir);
    // Each version of the touched files: about 30 KB each, every iteration changes one method in each.
    const versions = Array.from({ length: ITERATIONS + 1 }, (_, v) => TOUCHED.map((file, i) => source(`C${i}`, v * 1000 + i, 30_000)));
    TOUCHED.forEach((file, i) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), versions[0][i]);
    });
    const generatedMs = performance.now() - started;

    const host = createNodeHost(dir);
    const steps = new FakeSteps().script('captureBaseline', { output: baseline() }).script('plan', { output: planOutput() });
    for (let v = 1; v <= ITERATIONS; v++) {
      steps.script('code', { output: codeOutput(TOUCHED.map((file, i) => makeFileEdit(file, versions[v - 1][i], versions[v][i]))) });
      steps.script('validate', { output: v === ITERATIONS ? passing() : failing(v) });
    }
    const orchestrator = orchestratorOver(host, steps);
    steps.onStart('validate', (input) => orchestrator.store.journal.applyEdits(input.stateId, input.edits));
    const takes: number[] = [];
    const checkpoints = orchestrator.store.checkpoints;
    const take = checkpoints.take.bind(checkpoints);
    checkpoints.take = async (...args) => {
      const at = performance.now();
      const summary = await take(...args);
      takes.push(performance.now() - at);
      return summary;
    };
    const stream = new StateStream(
      orchestrator.execute(
        'Change the orders',
        workflow({ workspaceRoot: dir, maxIterations: ITERATIONS, approval: { plan: 'never', diffs: 'never' } }),
        AbortSignal.timeout(120_000),
      ),
      60_000,
    );
    const end = (await stream.rest()).at(-1);
    if (end !== 'SUCCESS') throw new Error(`the run ended at ${end}`);
    const runId = stream.runId;
    const checkpointDir = path.join(dir, '.ironbees', 'runs', runId, 'checkpoints');
    const count = (await checkpoints.list(runId)).length;
    const storage = dirBytes(checkpointDir);
    const touchedBytes = TOUCHED.reduce((sum, file) => sum + statSync(path.join(dir, file)).size, 0);

    const rewinds: number[] = [];
    for (const ref of ['iteration:1', `iteration:${ITERATIONS}`, 'iteration:1']) {
      const at = performance.now();
      await rewindRun(orchestrator.store, runId, ref);
      rewinds.push(performance.now() - at);
    }
    const figures = {
      repository: { files: FILES, bytes: repoBytes + touchedBytes, generatedMs: Math.round(generatedMs) },
      touchedFiles: TOUCHED.length,
      touchedBytes,
      checkpoints: count,
      checkpointStorageBytes: storage,
      storagePerCheckpointBytes: Math.round(storage / count),
      storagePerCheckpointVsTouched: Number((storage / count / touchedBytes).toFixed(2)),
      checkpointMs: { median: Number(median(takes).toFixed(1)), max: Number(Math.max(...takes).toFixed(1)) },
      rewindMs: { median: Number(median(rewinds).toFixed(1)), max: Number(Math.max(...rewinds).toFixed(1)) },
    };
    process.stdout.write(`${JSON.stringify(figures, null, 1)}\n`);
    const ok = figures.storagePerCheckpointVsTouched <= 2 && figures.checkpointMs.max <= 50 && figures.rewindMs.max <= 200;
    process.stdout.write(
      `${ok ? 'within' : 'OVER'} the goals (≤ 2× the touched files per checkpoint, ≤ 50 ms per checkpoint, rewind ≤ 200 ms)\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
