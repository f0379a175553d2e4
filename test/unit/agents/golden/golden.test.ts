// Every golden conversation in this folder, replayed: what the model is told and what would reach
// disk must be exactly as recorded (golden-runner.ts says how to re-record).

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { RECORDING, goldenFiles, playGolden, readGolden, writeGolden } from './golden-runner';

describe('golden conversations', function () {
  this.timeout(60_000);
  for (const name of goldenFiles(__dirname)) {
    const file = path.join(__dirname, name);
    const golden = readGolden(file);
    it(`${name.replace('.golden.json', '')}: ${golden.about}`, async () => {
      const { told: _told, kept: _kept, outcome: _outcome, disk: _disk, ...script } = golden;
      const record = await playGolden(script);
      if (RECORDING) {
        writeGolden(file, { ...script, ...record });
        return;
      }
      assert.ok(golden.told, `${name} has no record yet: run with IRONBEES_RECORD_GOLDEN=1`);
      assert.deepEqual(record.told, golden.told, 'what the model was told');
      assert.deepEqual(record.kept, golden.kept, 'what was kept of each answer');
      assert.deepEqual(record.outcome, golden.outcome, 'the outcome (edits that would reach disk, or the error)');
      assert.deepEqual(record.disk, golden.disk, 'the workspace on disk');
    });
  }
});
