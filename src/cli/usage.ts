// The help text. Kept beside the parser's option table in spirit: when a flag is added there, it is
// documented here, and the args tests check that every flag the parser knows is mentioned.

import type { CommandName } from './args';
import { DEFAULT_BUILD_TIMEOUT_SECONDS, DEFAULT_TEST_TIMEOUT_SECONDS } from './args';
import { DEFAULT_MAX_ITERATIONS, DEFAULT_REVIEW_THRESHOLD } from '../core/model';
import { PROVIDER_NAMES } from '../core/llm/providers/choice';

const PROVIDERS = PROVIDER_NAMES.join('|');

const HEADER = 'ironbees: an autonomous C#/.NET coding agent that plans, edits, builds and tests until green.';

const COMMAND_USAGE: Record<CommandName, string[]> = {
  run: [
    'ironbees run "<request>" [options]',
    '  Runs the workflow (plan → code → build and test) on the workspace.',
    '  -w, --workspace DIR            the workspace (default: the current folder)',
    '  -y, --yes                      approve plan and diffs; an escalation ends the run (exit 3);',
    '                                 excuses no failing test, not even one the plan names as known',
    '      --trust-workspace          use what the workspace defines (.ironbees/agents/, .ironbees/mcp.json);',
    '                                 without it (or a "yes" to the question on a terminal) they are ignored',
    '      --accept-known-failures    with --yes: the failing tests the plan names as known do not block SUCCESS',
    `      --max-iterations N         coding attempts before escalating (default ${DEFAULT_MAX_ITERATIONS})`,
    '      --model ID                 the model for every agent (needed with --provider openai)',
    `      --provider ${PROVIDERS}  the provider for every agent (default: agent.yaml, else anthropic);`,
    '                                 openai = any OpenAI-compatible server (OPENAI_API_KEY, OPENAI_BASE_URL)',
    '      --context FILE             instructions for every agent, beside AGENTS.md (repeatable)',
    `      --fallback-provider ${PROVIDERS} --fallback-model ID`,
    '                                 where calls go while the primary is out (overload, 5xx, time-outs)',
    '      --min-call-interval SECONDS  at least this long between two model calls (rate limits)',
    '      --max-cost USD             budget: escalate once the run has cost this much',
    '      --max-tokens N             budget: escalate once the run has used this many tokens',
    '      --max-minutes M            budget: escalate once the run has run this long (this session)',
    '      --plan-approval always|never        ask before coding (default always)',
    '      --diff-approval always|first|never  ask before applying edits (default always)',
    `      --build-timeout SECONDS    limit for one dotnet build (default ${DEFAULT_BUILD_TIMEOUT_SECONDS})`,
    `      --test-timeout SECONDS     limit for one dotnet test (default ${DEFAULT_TEST_TIMEOUT_SECONDS})`,
    '      --target PATH              the .sln/.slnx/.csproj to build and test (default: found automatically)',
    '      --sandbox auto|on|off      build and test with no network, writing only to the workspace, temp and',
    '                                 NuGet caches, home folder hidden (Linux, bubblewrap); auto = where',
    '                                 available (default), on = refuse to run without it (exit 2)',
    '      --review required|advisory|off  a reviewer reads the change once the tests pass: required = a',
    '                                 failing review goes back to the coder (default); advisory = shown only',
    `      --review-threshold N       the least score (1-10) a review passes with (default ${DEFAULT_REVIEW_THRESHOLD})`,
    '      --json                     one CodingState JSON object per line on stdout; logs on stderr',
    '      --activity quiet|normal|verbose  the live activity on stderr: none; tool calls and the',
    "                                 model's words on one line (default; on a terminal the line shows",
    "                                 the words as they arrive); words streamed in full and each call's cost",
    '      --activity-json            the live activity as JSON lines on stderr instead',
    '      --demo                     use the scripted demo model instead of Anthropic (no key, no cost)',
  ],
  resume: [
    'ironbees resume <runId> [options]',
    '  Continues a persisted run from where it stopped, with the settings it was started with',
    '  (provider, model, fallback, --min-call-interval, --demo, --sandbox).',
    '  -w, --workspace DIR   the workspace (default: the current folder)',
    '  -y, --yes             approve plan and diffs; an escalation ends the run (exit 3)',
    '      --trust-workspace use what the workspace defines (.ironbees/agents/, .ironbees/mcp.json)',
    '      --accept-known-failures  with --yes: the failing tests the plan names as known do not block SUCCESS',
    '      --json            one CodingState JSON object per line on stdout',
    '      --activity quiet|normal|verbose  the live activity on stderr (default normal)',
    '      --activity-json   the live activity as JSON lines on stderr instead',
    '      --demo            use the scripted demo model (a run started with --demo keeps it without this flag)',
    '      --sandbox auto|on|off  overrides the sandbox setting the run was started with',
  ],
  runs: [
    'ironbees runs [options]',
    '  Lists the runs of the workspace: state, iterations, tokens, cost.',
    '  -w, --workspace DIR   the workspace (default: the current folder)',
    '      --json            one JSON object per run, one per line',
  ],
  revert: [
    'ironbees revert <runId> [options]',
    '  Restores every file the run changed to its original content, and deletes files it created.',
    '  -w, --workspace DIR   the workspace (default: the current folder)',
  ],
  trace: [
    'ironbees trace <runId> [options]',
    "  Prints the run's turns (agent, tool calls, outcome, time, tokens) and their summary:",
    '  turns per step, p95 tool latency, error kinds, retries, tokens and cost.',
    '  -w, --workspace DIR   the workspace (default: the current folder)',
    '      --json            one turn event per line, then the summary as the last line',
  ],
  mcp: [
    'ironbees mcp [options]',
    '  Serves the workspace as an MCP server over stdio: C# tools, run control, apmas_* coordination.',
    '  -w, --workspace DIR   the workspace (default: the current folder)',
    '      --trust-workspace runs use what the workspace defines (.ironbees/agents/, .ironbees/mcp.json)',
    '      --http            Streamable HTTP on 127.0.0.1 instead of stdio (bearer token required)',
    '      --port N          the HTTP port (default: any free port, printed on stderr)',
    '      --token T         the bearer token (default: IRONBEES_MCP_TOKEN, else generated and printed on stderr)',
    '      --demo            runs started through MCP use the scripted demo model',
    '      --sandbox auto|on|off  the build and test tools and runs in the sandbox (see ironbees run --help)',
  ],
  bench: [
    'ironbees bench <task-file> [options]',
    '  Runs every task of a task file (JSON or YAML) as `ironbees run --yes` would, each on a fresh copy',
    '  of its repository in a temp folder, and writes report.json, report.md and report.html: pass (the',
    '  fail_to_pass tests now pass, the pass_to_pass tests still pass), iterations, protocol and edit',
    '  health, compile loop, integrity, tokens, cache share, cost and wall time per task and in total.',
    '  A task: { id, repo: FOLDER | repo_url: GIT-URL + commit: HASH, request, fail_to_pass: [test names],',
    "  pass_to_pass: [test names] }; a relative repo is read from the task file's folder.",
    '  An Exercism C# exercise folder is a task too: { exercism: FOLDER } (its [Fact] tests, Skip removed).',
    '      --out DIR             the report folder (default: ./bench-report); each run is kept in',
    '                            DIR/runs/<task id> (its transcript: ironbees trace <runId> -w DIR/runs/<task id>)',
    '      --max-cost USD        budget per task: a task escalates (and fails) once its run has cost this much',
    `      --max-iterations N    coding attempts per task (default ${DEFAULT_MAX_ITERATIONS})`,
    '      --model ID            the model for every agent',
    `      --provider ${PROVIDERS}  the provider for every agent (default: agent.yaml, else anthropic)`,
    '      --sandbox auto|on|off  build and test in the sandbox (see ironbees run --help)',
    '      --keep                leave the task copies in the temp folder (their paths are printed)',
    '      --demo                use the scripted demo model (no key, no cost)',
    '  Exit code: 0 when every task passed, 1 when one did not, 130 after Ctrl-C (the report covers the tasks that ran).',
  ],
};

const FOOTER = [
  'Global: -h, --help   show help (also: ironbees <command> --help) · --version',
  'Exit codes: 0 success · 1 failed · 2 bad usage or configuration · 3 escalated (needs a person) · 4 stopped by you at an escalation · 130 interrupted (resumable)',
  'Model access: ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL), as the Anthropic SDK reads them.',
];

export function usageText(command?: CommandName): string {
  if (command) return [...COMMAND_USAGE[command], '', ...FOOTER, ''].join('\n');
  const all = Object.values(COMMAND_USAGE).flatMap((lines) => [...lines, '']);
  return [HEADER, '', 'Usage:', '', ...all, ...FOOTER, ''].join('\n');
}
