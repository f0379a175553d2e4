// The kernel (src/core/*.ts) is the domain: its types, errors, ports and the node table
// (ARCHITECTURE.md, "The house"). Plumbing goes to the layer that uses it, or to platform/ when
// several do; a new loose file here fails until it is placed or named below.

import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..');

const KERNEL = [
  'activity.ts', // the live activity's events
  'errors.ts', // the error types
  'host.ts', // the Host port
  'model.ts', // the domain types (CodingState and what it holds)
  'nodes.ts', // the node table
  'phase-graph.ts', // a plan's phases and their order
  'redact.ts', // the secrets errors and logs never show
  'trace.ts', // trace events and the trace sink
];

describe('the kernel', () => {
  it('holds only the domain types, errors, ports and the node table', () => {
    const files = readdirSync(path.join(REPO, 'src', 'core'), { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
      .sort();
    assert.deepEqual(files, KERNEL);
  });
});
