// scripts/dev/rewrite-imports.mjs: code written against the old layout (e.g. on a branch merged after
// issue 11's moves) is fixed mechanically by the old -> new map, and fixing twice changes nothing.
// rewrite-imports: skip-file (the fixtures below quote old-layout imports)

import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const SCRIPT = path.resolve(__dirname, '../../../scripts/dev/rewrite-imports.mjs');

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

describe('rewrite-imports (dev script)', () => {
  let root: string;
  beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-rewrite-'))));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('points old-layout imports at the moved files, including files added to a moved folder and from moved files', () => {
    write(
      root,
      'moves.txt',
      'src/core/tools/dotnet/build.ts -> src/core/dotnet/build.ts\nsrc/core/tools/dotnet/ -> src/core/dotnet/\nsrc/core/workflow/types.ts -> src/core/trace.ts\n',
    );
    write(root, 'src/core/dotnet/build.ts', 'export const runBuild = 1;\n');
    write(root, 'src/core/dotnet/new-file.ts', "import type { TraceSink } from '../../workflow/types';\nexport type T = TraceSink;\n");
    write(root, 'src/core/trace.ts', 'export interface TraceSink {}\n');
    write(
      root,
      'src/cli/uses.ts',
      "import { runBuild } from '../core/tools/dotnet/build';\nimport type { TraceSink } from '../core/workflow/types';\n// from '../core/tools/dotnet/build' in a comment stays\n",
    );
    const out = execFileSync(process.execPath, [SCRIPT, 'moves.txt'], { cwd: root, encoding: 'utf8' });
    assert.equal(out.trim(), '3 import(s) rewritten, 0 unresolved');
    assert.equal(
      fs.readFileSync(path.join(root, 'src/cli/uses.ts'), 'utf8'),
      "import { runBuild } from '../core/dotnet/build';\nimport type { TraceSink } from '../core/trace';\n// from '../core/tools/dotnet/build' in a comment stays\n",
    );
    assert.equal(
      fs.readFileSync(path.join(root, 'src/core/dotnet/new-file.ts'), 'utf8'),
      "import type { TraceSink } from '../trace';\nexport type T = TraceSink;\n",
    );
    const again = execFileSync(process.execPath, [SCRIPT, 'moves.txt', '--check'], { cwd: root, encoding: 'utf8' });
    assert.equal(again.trim(), '0 import(s) rewritten, 0 unresolved');
  });
});
