// Build less (issue 15): on a generated chain of 40 libraries (Lib1 ← Lib2 ← … ← Lib40) and a test
// project over the last, a leaf edit (Lib40) is built two ways through Ironbees' runBuild:
//   (a) walk: the test project, which walks and checks the whole reference chain (what validation did);
//   (b) alone: Lib40 then the test project, in order, with -p:BuildProjectReferences=false (what it does
//       now when every upstream project is proven built and unchanged; the proof is checked here too).
// Runs are interleaved, build servers on (as the validator runs). Figures: medians with ranges.
// Run: node --import tsx bench/reference-chain.bench.ts   (IRONBEES_BENCH_RUNS=N, default 5; IRONBEES_CHAIN=N, default 40)

import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Host } from '../src/core/host';
import { runBuild } from '../src/core/dotnet/build';
import { loadProjectGraph, scopeOfChanges } from '../src/core/dotnet/project-graph';
import { hasFreshOutputs, upstreamOf } from '../src/core/dotnet/reference-walk';
import { createNodeHost, stopLingeringProcessGroups } from '../src/host/node/index';

const RUNS = Number(process.env.IRONBEES_BENCH_RUNS ?? 5);
const LENGTH = Number(process.env.IRONBEES_CHAIN ?? 40);
const LIMIT_MS = 900_000;
const MULTI = path.join(__dirname, '..', 'test', 'fixtures', 'multi');
const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => console.error(message),
  error: (message: string) => console.error(message),
};

function library(index: number): string {
  const reference =
    index > 1 ? `  <ItemGroup>\n    <ProjectReference Include="..\\Lib${index - 1}\\Lib${index - 1}.csproj" />\n  </ItemGroup>\n` : '';
  return `<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net10.0</TargetFramework>\n    <Nullable>enable</Nullable>\n  </PropertyGroup>\n${reference}</Project>\n`;
}

function source(index: number): string {
  const previous = index > 1 ? `Lib${index - 1}.Part.Value(x) + ` : '';
  return `namespace Lib${index};\n\npublic static class Part\n{\n    public static int Value(int x) => ${previous}${index};\n}\n`;
}

/** The chain and a solution-free test project over its last library (packages from the default NuGet feed). */
function generate(root: string): void {
  for (let index = 1; index <= LENGTH; index++) {
    mkdirSync(path.join(root, `Lib${index}`), { recursive: true });
    writeFileSync(path.join(root, `Lib${index}`, `Lib${index}.csproj`), library(index));
    writeFileSync(path.join(root, `Lib${index}`, 'Part.cs'), source(index));
  }
  const tests = path.join(root, 'Chain.Tests');
  mkdirSync(tests, { recursive: true });
  const csproj = readFileSync(path.join(MULTI, 'tests', 'TextKit.Tests', 'TextKit.Tests.csproj'), 'utf8').replace(
    '..\\..\\src\\TextKit\\TextKit.csproj',
    `..\\Lib${LENGTH}\\Lib${LENGTH}.csproj`,
  );
  writeFileSync(path.join(tests, 'Chain.Tests.csproj'), csproj);
  writeFileSync(
    path.join(tests, 'ChainTests.cs'),
    `namespace Chain.Tests;\n\npublic class ChainTests\n{\n    [Fact]\n    public void Sums() => Assert.True(Lib${LENGTH}.Part.Value(0) > 0);\n}\n`,
  );
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function timedBuild(host: Host, projects: string[], alone: boolean): Promise<number> {
  const result = await runBuild({ host, projects, restore: false, timeoutMs: LIMIT_MS, withoutReferenceWalk: alone });
  if (!result.success)
    throw new Error(`build failed: ${result.errors.map((error) => error.message).join('; ')}\n${result.outputTail ?? ''}`);
  return result.durationMs;
}

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'ironbees-chain-'));
  const host = createNodeHost(root, { logger: quiet });
  try {
    generate(root);
    const testProject = path.join(root, 'Chain.Tests', 'Chain.Tests.csproj');
    const leaf = path.join(root, `Lib${LENGTH}`, `Lib${LENGTH}.csproj`);
    const first = await runBuild({ host, projects: [testProject], restore: true, timeoutMs: LIMIT_MS });
    if (!first.success) throw new Error(`first build failed: ${first.outputTail ?? ''}`);
    console.log(`chain of ${LENGTH} libraries + a test project: first build (restore) ${(first.durationMs / 1000).toFixed(1)} s`);
    const target = { absPath: testProject, relPath: 'Chain.Tests/Chain.Tests.csproj', kind: 'project' as const };
    const graph = await loadProjectGraph(host, target);
    const edited = `Lib${LENGTH}/Part.cs`;
    const walk: number[] = [];
    const alone: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      appendFileSync(path.join(root, edited), `// edit ${run}a\n`);
      walk.push(await timedBuild(host, [testProject], false));
      appendFileSync(path.join(root, edited), `// edit ${run}b\n`);
      // The validator's proof, as it makes it: every project upstream of the affected ones is built after its sources.
      const scope = scopeOfChanges(graph, [edited], root);
      const upstream = upstreamOf(graph, scope.affected ?? []);
      const proven = (await Promise.all(upstream.map((project) => hasFreshOutputs(project, root)))).every(Boolean);
      if (!proven || upstream.length !== LENGTH - 1) throw new Error(`the proof failed (${upstream.length} upstream projects)`);
      alone.push(await timedBuild(host, [leaf, testProject], true));
    }
    const range = (values: number[]) =>
      `${(median(values) / 1000).toFixed(2)} s (${(Math.min(...values) / 1000).toFixed(2)}–${(Math.max(...values) / 1000).toFixed(2)})`;
    console.log(`leaf edit, ${RUNS} runs interleaved (medians, ranges in brackets):`);
    console.log(`  (a) walk the chain:                          ${range(walk)}`);
    console.log(`  (b) alone, -p:BuildProjectReferences=false:  ${range(alone)}`);
    console.log(`  (b)/(a): ${(median(alone) / median(walk)).toFixed(2)}`);
  } finally {
    stopLingeringProcessGroups();
    rmSync(root, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
