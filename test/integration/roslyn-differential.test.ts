// The differential suite: the compile gate's verdict against a real `dotnet build`, on fresh copies
// of the fixtures (no obj/: never restored) and a corpus of edits (roslyn-differential/corpus.ts).
// The engine starts loading while the baseline's restore runs, as in a run on a fresh clone, so the
// race this guards against is exercised every time: the engine must follow the restore.
//
// A false positive is an error the gate reports that the build does not have: there must be none.
// A false negative is an error the build has that the gate missed (in an "unknown" project that is
// by design): each is named in the output and counted. Each edit must also be judged or left to
// the build exactly as the corpus says, so a gate that answered "unknown" everywhere fails here.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { EngineCodeChecker } from '../../src/core/csharp/engine/code-checker';
import { RoslynEngine } from '../../src/core/csharp/engine/roslyn-engine';
import { runBuild } from '../../src/core/dotnet/build';
import type { CodeCheckResult } from '../../src/core/host';
import { createNodeHost } from '../../src/host/node';
import { copyFixtureTo, ensureEngineBuilt, quietLogger, removeAll, useEngine } from '../support/roslyn-engine';
import { CORPUS } from './roslyn-differential/corpus';
import type { CorpusEdit, CorpusWorkspace } from './roslyn-differential/corpus';

const BUILD_MS = 600_000;

interface Outcome {
  edit: string;
  gate: CodeCheckResult;
  gateErrors: string[];
  buildErrors: string[];
}

function materialise(temps: string[], workspace: CorpusWorkspace): string {
  if (typeof workspace.fixture === 'string') return copyFixtureTo(temps, workspace.fixture);
  const root = mkdtempSync(path.join(tmpdir(), 'ironbees-roslyn-diff-'));
  temps.push(root);
  for (const [rel, text] of Object.entries(workspace.fixture)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}

/** Writes the edits to disk; returns what puts the disk back. */
function writeEdits(root: string, edits: readonly CorpusEdit[]): () => void {
  const before = new Map<string, string | null>();
  for (const edit of edits) {
    for (const [rel, text] of Object.entries({ ...edit.buildInputs, ...edit.files })) {
      const abs = path.join(root, rel);
      let old: string | null = null;
      try {
        old = readFileSync(abs, 'utf8');
      } catch {
        old = null;
      }
      if (!before.has(rel)) before.set(rel, old);
      mkdirSync(path.dirname(abs), { recursive: true });
      writeFileSync(abs, text);
    }
  }
  return () => {
    for (const [rel, old] of before) {
      if (old === null) rmSync(path.join(root, rel), { force: true });
      else writeFileSync(path.join(root, rel), old);
    }
  };
}

const key = (e: { filePath: string | null; code: string }): string => `${e.filePath}: ${e.code}`;

describe('the compile gate against dotnet build (differential, fresh clones)', function () {
  this.timeout(1_800_000);
  const temps: string[] = [];
  const outcomes: Outcome[] = [];
  let enginePath: string;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = useEngine();
    enginePath = await ensureEngineBuilt();
  });

  after(() => {
    restoreEnv();
    removeAll(temps);
    const positives = outcomes.flatMap((o) => o.gateErrors.filter((e) => !o.buildErrors.includes(e)).map((e) => `${o.edit}: ${e}`));
    const negatives = outcomes.flatMap((o) => o.buildErrors.filter((e) => !o.gateErrors.includes(e)).map((e) => `${o.edit}: ${e}`));
    console.log(
      `      differential: ${outcomes.length} edits; gate false positives ${positives.length}; false negatives ${negatives.length}`,
    );
    for (const line of negatives) console.log(`        false negative (the build decided): ${line}`);
  });

  for (const workspace of CORPUS) {
    it(`${workspace.name}: no error the build does not have, and each edit judged as the corpus says`, async () => {
      const root = materialise(temps, workspace);
      const host = createNodeHost(root, { logger: quietLogger });
      const engine = new RoslynEngine({
        workspaceRoot: root,
        target: async () => path.join(root, workspace.target),
        enginePath,
        logger: quietLogger,
      });
      try {
        // As on a fresh clone: the engine loads while the baseline restores and builds.
        engine.warmUp();
        const baseline = await runBuild({ host, projects: [path.join(root, workspace.target)], restore: true, timeoutMs: BUILD_MS });
        assert.equal(baseline.success, true, `the baseline builds: ${baseline.errors.map(key).join(', ')}`);
        const checker = new EngineCodeChecker(engine);
        for (const group of workspace.groups) {
          const verdicts = new Map<CorpusEdit, CodeCheckResult>();
          for (const edit of group) {
            const files = Object.entries(edit.files).map(([rel, text]) => ({ path: rel, text }));
            verdicts.set(edit, await checker.check(files, { buildInputs: Object.keys(edit.buildInputs ?? {}) }));
          }
          const putBack = writeEdits(root, group);
          const restore = group.some((edit) => edit.buildInputs !== undefined);
          const build = await runBuild({ host, projects: [path.join(root, workspace.target)], restore, timeoutMs: BUILD_MS });
          putBack();
          assert.equal(build.timedOut ?? false, false);
          for (const edit of group) {
            const gate = verdicts.get(edit)!;
            const mine = new Set(Object.keys(edit.files));
            const outcome: Outcome = {
              edit: `${workspace.name} / ${edit.name}`,
              gate,
              gateErrors: [...new Set(gate.errors.map(key))].sort(),
              buildErrors: [...new Set(build.errors.filter((e) => e.filePath !== null && mine.has(e.filePath)).map(key))].sort(),
            };
            outcomes.push(outcome);
            assert.deepEqual(
              outcome.gateErrors.filter((e) => !outcome.buildErrors.includes(e)),
              [],
              `${outcome.edit}: errors the build does not have`,
            );
            const unknown = (gate.unknown ?? []).map((u) => u.project);
            if (edit.gate === 'judged')
              assert.deepEqual(unknown, [], `${outcome.edit}: judged, not left to the build (${JSON.stringify(gate.unknown)})`);
            else assert.ok(unknown.length > 0 && gate.total === 0, `${outcome.edit}: left to the build (${JSON.stringify(gate)})`);
          }
        }
      } finally {
        await engine.dispose();
      }
    });
  }

  it('the real compile errors in the corpus are caught by the gate (no false negative where it judges)', function () {
    const real = outcomes.filter((o) => o.buildErrors.length > 0 && (o.gate.unknown ?? []).length === 0);
    if (real.length === 0) this.skip();
    for (const outcome of real) assert.deepEqual(outcome.gateErrors, outcome.buildErrors, outcome.edit);
    assert.deepEqual(
      real.map((o) => o.buildErrors.map((e) => e.split(': ')[1]).join(',')),
      ['CS0103', 'CS0246', 'CS1061'],
    );
  });
});
