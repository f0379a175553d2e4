// A run through the real baseline and validate steps (a scripted `dotnet`, fake plan and code steps) in
// which the coder's edit breaks a whole suite: `failing` tests with long messages and deep stacks. Held at
// WAIT_HUMAN (one iteration allowed). Shared by stored-results.test.ts and bench/state-size.bench.ts.

import { cpSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Host } from '../../../src/core/host';
import type { CodingState } from '../../../src/core/model';
import { makeFileEdit } from '../../../src/core/workspace/diff';
import { RunOrchestrator } from '../../../src/core/workflow/orchestrator';
import { createStepActors } from '../../../src/core/workflow/step-actors';
import type { OrchestratorDeps } from '../../../src/core/workflow/step-actors';
import { createNodeHost } from '../../../src/host/node/index';
import { generatedFailures } from '../../support/many-failures';
import { FakeDotnet, trxOf } from '../dotnet/fake-dotnet';
import { FakeSteps } from './fake-steps';
import { StateStream } from './orchestrator-harness';
import { planOutput, usage, workflow } from './samples';

const MULTI = path.join(__dirname, '..', '..', 'fixtures', 'multi');
const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

export interface BreakingRun {
  states: CodingState[];
  runId: string;
  host: Host;
}

/**
 * `tests` tests in one project; the first `baselineFailing` already fail before any edit, and after the
 * edit the first `failing` fail. The caller aborts `signal` to end the held run.
 */
export async function runThatBreaks(
  dir: string,
  counts: { tests: number; failing: number; baselineFailing: number },
  signal: AbortSignal,
): Promise<BreakingRun> {
  cpSync(MULTI, dir, { recursive: true, filter: (source) => !/[\\/](bin|obj)$/.test(source) });
  const fake = new FakeDotnet();
  const generated = generatedFailures(dir, counts.tests);
  const outcomeAt = (failingCount: number) =>
    generated.map((failure, index) => (index < failingCount ? failure : { name: failure.name, outcome: 'Passed' as const }));
  // Made once: the scripted dotnet's documents are not what is measured.
  const baselineTrx = trxOf(outcomeAt(counts.baselineFailing));
  const brokenTrx = trxOf(outcomeAt(counts.failing));
  fake.trxTexts.set('TextKit.Tests', baselineTrx);
  fake.tests.set('Reporting.Tests', [{ name: 'Reporting.Tests.ReportTests.Anchor', outcome: 'Passed' }]);
  const host: Host = { ...createNodeHost(dir, { logger: quiet }), process: fake };
  const slug = readFileSync(path.join(dir, 'src', 'TextKit', 'Slug.cs'), 'utf8');
  const steps = new FakeSteps()
    .script('plan', { output: planOutput() })
    .script('code', {
      output: {
        summary: 'Rewrote Slug',
        edits: [makeFileEdit('src/TextKit/Slug.cs', slug, `${slug}\n// changed\n`)],
        usage: usage(50, 10),
      },
    })
    .onStart('code', async () => {
      fake.trxTexts.set('TextKit.Tests', brokenTrx);
    });
  const orchestrator = new RunOrchestrator(host, (store, traceFor) => {
    const real = createStepActors({ host } as unknown as OrchestratorDeps, store, traceFor);
    return { ...steps.actors(), captureBaseline: real.captureBaseline, validate: real.validate, writeHandoff: real.writeHandoff };
  });
  const flow = workflow({ workspaceRoot: dir, maxIterations: 1, approval: { plan: 'never', diffs: 'never' } });
  const stream = new StateStream(orchestrator.execute('Make slugs shorter', flow, signal), 60_000);
  await stream.until(counts.failing > 0 ? 'WAIT_HUMAN' : 'SUCCESS');
  return { states: stream.seen, runId: stream.runId, host };
}
