// The Roslyn engine's cost and worth, on a 12-project solution (the `multi` fixture grown as
// validation.bench.ts grows it: 4 more libraries over TextKit, each with a test project):
//   load: engine start + MSBuildWorkspace load of the solution (seed goal: under 10 s), with where
//   it went (the build host's start and first project, MSBuild's evaluation and design-time builds
//   summed over projects) and the machine's load average, since the load is CPU-bound;
//   warm find_references latency (at a declaration, compiler-exact);
//   check_code after a one-file edit vs an incremental `dotnet build` of the affected projects;
//   precision of find_references: the text index's answer against the compiler's, per symbol,
//   on the grown solution and on the warehouse fixture (same-named members, a comment, a string);
//   warm start: a second engine on the unchanged workspace, built from the first one's cache
//   (roslyn/Ironbees.Roslyn/WarmCache.cs): its load, the compile it starts ahead, and its first
//   check_code (goal: ≤ 1 s). The loads above run with the cache off, so they stay cold.
// Run: npm run bench, or node --import tsx bench/roslyn.bench.ts (IRONBEES_BENCH_RUNS=N, default 3).

import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { EngineSymbolProvider } from '../src/core/csharp/engine/engine-symbols';
import { RoslynEngine } from '../src/core/csharp/engine/roslyn-engine';
import type { SourcePosition } from '../src/core/host';
import { CSharpTextIndex } from '../src/core/csharp/text-index';
import { NodeFileSystem, createNodeHost } from '../src/host/node/index';
import { ensureEngineBuilt } from '../test/support/roslyn-engine';

const RUNS = Number(process.env.IRONBEES_BENCH_RUNS ?? 3);
const EXTRA_LIBRARIES = 4;
const FILES_PER_LIBRARY = 8;
const EDITED_FILE = 'src/Reporting/Report.cs';
const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: (m: string) => console.error(m),
  error: (m: string) => console.error(m),
};
const fs = new NodeFileSystem();
const FIXTURES = path.join(__dirname, '..', 'test', 'fixtures');

function copy(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `ironbees-roslyn-bench-${name}-`));
  cpSync(path.join(FIXTURES, name), dir, { recursive: true, filter: (s) => !/[\\/](bin|obj|TestResults)$/.test(s) });
  return dir;
}

async function dotnet(root: string, args: string[]): Promise<number> {
  const host = createNodeHost(root, { logger: quiet });
  const started = performance.now();
  const result = await host.process.run('dotnet', args, { cwd: root, timeoutMs: 600_000 });
  if (result.exitCode !== 0) throw new Error(`dotnet ${args.join(' ')} failed:\n${result.stdout.slice(-2000)}`);
  return performance.now() - started;
}

async function grow(root: string): Promise<void> {
  const testProject = readFileSync(path.join(root, 'tests', 'TextKit.Tests', 'TextKit.Tests.csproj'), 'utf8');
  const added: string[] = [];
  for (let index = 1; index <= EXTRA_LIBRARIES; index++) {
    const lib = `Feature${index}`;
    mkdirSync(path.join(root, 'src', lib), { recursive: true });
    mkdirSync(path.join(root, 'tests', `${lib}.Tests`), { recursive: true });
    writeFileSync(
      path.join(root, 'src', lib, `${lib}.csproj`),
      '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup><TargetFramework>net10.0</TargetFramework><ImplicitUsings>enable</ImplicitUsings><Nullable>enable</Nullable></PropertyGroup>\n' +
        '  <ItemGroup><ProjectReference Include="..\\TextKit\\TextKit.csproj" /></ItemGroup>\n</Project>\n',
    );
    for (let file = 0; file < FILES_PER_LIBRARY; file++) {
      writeFileSync(
        path.join(root, 'src', lib, `Part${file}.cs`),
        `namespace ${lib};\n\npublic static class Part${file}\n{\n    public static string Format(IEnumerable<string> items, int width) =>\n` +
          "        string.Join('\\n', items.Select(item => TextKit.Padding.Center(TextKit.Slug.From(item), width)));\n}\n",
      );
    }
    writeFileSync(path.join(root, 'tests', `${lib}.Tests`, `${lib}.Tests.csproj`), testProject.replace(/TextKit/g, lib));
    writeFileSync(
      path.join(root, 'tests', `${lib}.Tests`, 'PartTests.cs'),
      `namespace ${lib}.Tests;\n\npublic class PartTests\n{\n    [Fact]\n    public void Format_Slugs() => Assert.Contains("hello-world", Part0.Format(new[] { "Hello World" }, 40));\n}\n`,
    );
    added.push(`src/${lib}/${lib}.csproj`, `tests/${lib}.Tests/${lib}.Tests.csproj`);
  }
  await dotnet(root, ['sln', 'Multi.sln', 'add', ...added]);
}

function engineFor(root: string, target: string): RoslynEngine {
  return new RoslynEngine({ workspaceRoot: root, target: async () => path.join(root, target), logger: quiet });
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/** Share of the text index's places for `name` that the compiler also lists for the symbol at `at`. */
async function precision(engine: RoslynEngine, root: string, name: string, at: SourcePosition): Promise<string> {
  const exact = await new EngineSymbolProvider(engine, new CSharpTextIndex(fs, root), fs, root).findReferencesAt(at, { limit: 500 });
  const byText = await new CSharpTextIndex(fs, root).findReferences(name, { limit: 500 });
  const key = (p: { filePath: string; line: number; column: number }): string => `${p.filePath}:${p.line}:${p.column}`;
  const truth = new Set(exact.map(key));
  const right = byText.filter((p) => truth.has(key(p))).length;
  return `${name.padEnd(22)} compiler ${String(exact.length).padStart(3)}  text index ${String(byText.length).padStart(3)}  precision ${((100 * right) / Math.max(1, byText.length)).toFixed(0)}%  recall ${((100 * right) / Math.max(1, truth.size)).toFixed(0)}%`;
}

/** Two engines in turn on the same workspace with a fresh cache folder: the second loads from the first's cache. */
async function warmStart(root: string): Promise<string[]> {
  const cache = mkdtempSync(path.join(tmpdir(), 'ironbees-roslyn-bench-cache-'));
  process.env.IRONBEES_ROSLYN_CACHE = cache;
  try {
    const first = engineFor(root, 'Multi.sln');
    await first.query('ping', {});
    const coldLoad = first.loadInfo?.loadMs ?? NaN;
    await first.dispose();
    // The compile ahead can take minutes on a busy machine: `warmed` waits for it, past the usual question limit.
    const second = new RoslynEngine({
      workspaceRoot: root,
      target: async () => path.join(root, 'Multi.sln'),
      logger: quiet,
      timeouts: { queryMs: 600_000 },
    });
    await second.query('ping', {});
    const warmLoad = second.loadInfo?.loadMs ?? NaN;
    const { waitedMs } = await second.query<{ waitedMs: number }>('warmed', {});
    const original = readFileSync(path.join(root, EDITED_FILE), 'utf8');
    const started = performance.now();
    await second.check({
      files: [
        {
          path: EDITED_FILE,
          text: original.replace('public string Title { get; }', 'public static int Warm => 1;\n\n    public string Title { get; }'),
        },
      ],
    });
    const firstCheck = performance.now() - started;
    await second.dispose();
    return [
      `  warm start (second engine, cache):   load ${s(warmLoad)} (from cache: ${second.loadInfo?.fromCache === true}; cold ${s(coldLoad)}), compile ahead ${s(waitedMs)}, first check_code ${s(firstCheck)} (goal ≤ 1 s); load average ${loadavg()[0].toFixed(1)}`,
    ];
  } finally {
    process.env.IRONBEES_ROSLYN_CACHE = '0';
    rmSync(cache, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  await ensureEngineBuilt();
  process.env.IRONBEES_ROSLYN = '1';
  process.env.IRONBEES_ROSLYN_CACHE = '0';
  const root = copy('multi');
  const warehouse = copy('warehouse');
  try {
    await grow(root);
    await dotnet(root, ['build', 'Multi.sln']);
    const loads: number[] = [];
    const phases: string[] = [];
    let engine: RoslynEngine | null = null;
    for (let run = 0; run < RUNS; run++) {
      await engine?.dispose();
      engine = engineFor(root, 'Multi.sln');
      const started = performance.now();
      await engine.query('ping', {});
      loads.push(performance.now() - started);
      const p = engine.loadInfo?.phases ?? {};
      phases.push(
        `first project ${s(p.firstProjectMs ?? NaN)}, evaluate ${s(p.evaluateMs ?? NaN)}, design-time build ${s(p.buildMs ?? NaN)}, resolve ${s(p.resolveMs ?? NaN)}; load average ${loadavg()[0].toFixed(1)}`,
      );
    }
    const warm = engine as RoslynEngine;
    const projects = warm.loadInfo?.projects ?? 0;
    const at = { filePath: 'src/TextKit/Slug.cs', line: 8, column: 26 };
    const refs: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      await warm.query('references', { at, limit: 500 });
      refs.push(performance.now() - started);
    }
    const checks: number[] = [];
    const builds: number[] = [];
    const original = readFileSync(path.join(root, EDITED_FILE), 'utf8');
    for (let run = 1; run <= RUNS; run++) {
      const edited = original.replace(
        'public string Title { get; }',
        `public static int Revision => ${run};\n\n    public string Title { get; }`,
      );
      const started = performance.now();
      await warm.check({ files: [{ path: EDITED_FILE, text: edited }] });
      checks.push(performance.now() - started);
      writeFileSync(path.join(root, EDITED_FILE), edited);
      builds.push(await dotnet(root, ['build', 'tests/Reporting.Tests/Reporting.Tests.csproj', '--no-restore']));
      warm.noteChanged([EDITED_FILE]);
    }
    const warmLines = await warmStart(root);
    const shop = engineFor(warehouse, 'Warehouse.slnx');
    const lines = [
      await precision(warm, root, 'Slug.From', at),
      await precision(warm, root, 'Padding.Center', { filePath: 'src/TextKit/Padding.cs', line: 5, column: 26 }),
      await precision(shop, warehouse, 'StockItem.Quantity', { filePath: 'src/Inventory/StockItem.cs', line: 8, column: 16 }),
      await precision(shop, warehouse, 'Pallet.Quantity', { filePath: 'src/Shipping/Pallet.cs', line: 8, column: 16 }),
      await precision(shop, warehouse, 'StockItem.UnitPrice', { filePath: 'src/Inventory/StockItem.cs', line: 10, column: 20 }),
    ];
    console.log(`Roslyn engine bench (${projects} projects; ${RUNS} runs, medians)`);
    console.log(`  engine load (start + open):          ${s(median(loads))}  (runs: ${loads.map(s).join(', ')}; goal < 10 s)`);
    for (const [run, line] of phases.entries()) console.log(`    run ${run + 1}: ${line}`);
    console.log(`  warm find_references (at):           ${median(refs).toFixed(0)} ms`);
    console.log(`  check_code after a one-file edit:    ${s(median(checks))}  (runs: ${checks.map(s).join(', ')})`);
    console.log(`  incremental dotnet build, affected:  ${s(median(builds))}  (runs: ${builds.map(s).join(', ')})`);
    for (const line of warmLines) console.log(line);
    console.log('  find_references precision, text index vs compiler:');
    for (const line of lines) console.log(`    ${line}`);
    await warm.dispose();
    await shop.dispose();
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(warehouse, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
