// The workspace's C# tools for other MCP clients: symbols and references (the same tools the agents
// use), diagnostics, and build and test with parsed results (BuildResult, TestResult as in core/model.ts).

import * as path from 'node:path';
import { z } from 'zod';
import type { Host } from '../core/host';
import { dotnetSession, findReferencesTool, findSymbolsTool, runBuild, runTests } from '../core/runtime/faces';
import type { ToolDefinition, ToolOutcome } from '../core/runtime/faces';
import { resolveWorkspacePath } from '../core/workspace/paths';

const BUILD_TIMEOUT_MS = 600_000;
const target = z.string().optional().describe('Workspace-relative .sln, .slnx or .csproj (default: found automatically)');

function json(value: unknown, summary: string): ToolOutcome {
  return { ok: true, content: JSON.stringify(value, null, 1), data: value, observation: { summary, keyFacts: {}, affordances: [] } };
}

async function build(host: Host, targetPath: string | undefined, signal?: AbortSignal): ReturnType<typeof runBuild> {
  const session = dotnetSession(host, targetPath);
  const found = await session.target();
  const graph = await session.graph();
  return runBuild({
    host,
    projects: [found.absPath],
    restore: !(await session.isRestored(graph)),
    timeoutMs: BUILD_TIMEOUT_MS - 10_000,
    signal,
  });
}

const buildInput = z.object({ target });
const buildTool: ToolDefinition<z.infer<typeof buildInput>> = {
  name: 'build',
  description: 'dotnet build of the workspace; returns {success, errors[], warnings[], durationMs} parsed from MSBuild output.',
  input: buildInput,
  readonly: true,
  runsRepositoryCode: true,
  timeoutMs: BUILD_TIMEOUT_MS,
  async execute(input, context) {
    const result = await build(context.host, input.target, context.signal);
    return json(
      result,
      result.success ? `Build succeeded with ${result.warnings.length} warnings.` : `Build failed with ${result.errors.length} errors.`,
    );
  },
};

const testInput = z.object({ target });
const testTool: ToolDefinition<z.infer<typeof testInput>> = {
  name: 'test',
  description:
    'Builds, then runs dotnet test on every test project; returns {success, total, passed, failed, skipped, failures[]} parsed from TRX.',
  input: testInput,
  readonly: true,
  runsRepositoryCode: true,
  timeoutMs: BUILD_TIMEOUT_MS * 2,
  async execute(input, context) {
    const built = await build(context.host, input.target, context.signal);
    if (!built.success) return json({ build: built, test: null }, `Build failed with ${built.errors.length} errors; tests were not run.`);
    const graph = await dotnetSession(context.host, input.target).graph();
    const modeFrom = path.dirname(graph.target.absPath);
    const run = await runTests({
      host: context.host,
      projects: graph.projects.filter((p) => p.isTest),
      timeoutMs: BUILD_TIMEOUT_MS,
      signal: context.signal,
      modeFrom,
    });
    const r = run.result;
    return json({ build: built, test: r }, `${r.total} tests: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped.`);
  },
};

const diagnosticsInput = z.object({
  paths: z.array(z.string()).optional().describe('Workspace-relative files to report on (default: all)'),
  target,
});
const diagnosticsTool: ToolDefinition<z.infer<typeof diagnosticsInput>> = {
  name: 'diagnostics',
  description: 'Compiler errors: from the language server where there is one, otherwise from a build; optionally only for the given files.',
  input: diagnosticsInput,
  readonly: true,
  runsRepositoryCode: true,
  timeoutMs: BUILD_TIMEOUT_MS,
  async execute(input, context) {
    // The one containment check: a path outside the workspace (or through a link leading out) is refused, not asked about.
    const paths = (input.paths ?? []).map((p) => resolveWorkspacePath(context.host.workspaceRoot, p).rel);
    if (context.host.diagnostics && paths.length > 0) {
      const errors = await context.host.diagnostics.errorsFor(paths, context.signal);
      return json({ source: 'language-server', errors }, `${errors.length} errors in ${paths.length} files.`);
    }
    const result = await build(context.host, input.target, context.signal);
    const wanted = new Set(paths.map((p) => p.replace(/\\/g, '/')));
    const errors = wanted.size ? result.errors.filter((e) => wanted.has((e.filePath ?? '').replace(/\\/g, '/'))) : result.errors;
    return json({ source: 'build', errors }, `${errors.length} errors.`);
  },
};

export function workspaceTools(): ToolDefinition[] {
  return [
    findSymbolsTool as ToolDefinition,
    findReferencesTool as ToolDefinition,
    diagnosticsTool as ToolDefinition,
    buildTool as ToolDefinition,
    testTool as ToolDefinition,
  ];
}
