// The fault matrix (issue 15 item 6): each row a fault, where it is injected and the end state it
// must reach; every row that touches a workspace also proves every byte of it is accounted for
// (each file its original or its expected edit, nothing else outside .ironbees/). The rows live in
// fault-matrix/*-rows.ts; the real-CLI kill -9 rows in fault-matrix/cli-rows.ts.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { assertAccounted } from '../support/fault-matrix/ledger';
import { journalRows } from './fault-matrix/journal-rows';
import { orchestratorRows } from './fault-matrix/orchestrator-rows';
import { modelRows } from './fault-matrix/model-rows';
import { cliRows, endCliChain } from './fault-matrix/cli-rows';
import { dotnetRows } from './fault-matrix/dotnet-rows';
import { rewindRows } from './fault-matrix/rewind-rows';
import type { FaultRow } from './fault-matrix/matrix';

const ROWS: FaultRow[] = [...journalRows, ...rewindRows, ...orchestratorRows, ...modelRows, ...dotnetRows, ...cliRows];

describe('fault matrix', function () {
  // The real-CLI rows build and test the fixture with dotnet; the others take well under a second.
  this.timeout(300_000);
  const dirs: string[] = [];
  after(async () => {
    await endCliChain();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const row of ROWS) {
    it(`${row.id}: ${row.fault} @ ${row.injectedAt} → ${row.expectedEnd}`, async () => {
      const outcome = await row.run();
      if (outcome.workspace) dirs.push(outcome.workspace.dir);
      assert.equal(outcome.end, row.expectedEnd);
      if (outcome.workspace)
        assertAccounted(outcome.workspace.dir, outcome.workspace.before, outcome.workspace.changes, outcome.workspace.ignore);
    });
  }
});
