// The help text. Kept beside the parser's option table in spirit: when a flag is added there, it is
// documented here, and the args tests check that every flag the parser knows is mentioned.

import type { CommandName } from './args';
import { DEFAULT_BUILD_TIMEOUT_SECONDS, DEFAULT_TEST_TIMEOUT_SECONDS } from './args';
import { DEFAULT_MAX_ITERATIONS } from '../core/model';
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
    '      --agent-timeout SECONDS    stop an agent silent that long (no model output, no tool call) and restart it;',
    '                                 the third time, ask a person (default per agent: planner 300, coder 600)',
    '      --target PATH              the .sln/.slnx/.csproj to build and test (default: found automatically)',
    '      --sandbox auto|on|off      build and test with no network, writing only to the workspace, temp and',
    '                                 NuGet caches, home folder hidden (Linux, bubblewrap); auto = where',
    '                                 available (default), on = refuse to run without it (exit 2)',
    '      --json                     one CodingState JSON object per line on stdout; logs on stderr',
    '      --activity quiet|normal|verbose  the live activity on stderr: none; tool calls and the',
    "                                 model's words on one line (default; on a terminal the line shows",
    "                                 the words as they arrive); words streamed in full and each call's cost",
    '      --activity-json            the live activity as JSON lines on stderr instead',
    '      --notify-webhook URL       signed POSTs when the run needs a person and when it ends',
    '                                 (default: IRONBEES_NOTIFY_WEBHOOK; signed with IRONBEES_NOTIFY_SECRET)',
    '      --demo                     use the scripted demo model instead of Anthropic (no key, no cost)',
    '      --worktree                 work in a git worktree of its own on branch ironbees/<runId>, one commit',
    '                                 per applied iteration; your working tree is not touched (several such',
    '                                 runs can work at once); bring the result in with `ironbees apply <runId>`',
    '      --worktrees-dir DIR        with --worktree: where the worktree is made (default .ironbees/worktrees)',
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
    "      --guidance TEXT   at the run's WAIT_HUMAN (an escalation, a rewind): go on with these words",
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
  apply: [
    'ironbees apply <runId> [options]',
    "  Brings a `run --worktree` run's branch (ironbees/<runId>) into the working tree, file by file,",
    '  each shown as a diff; nothing is staged or committed. Refuses files with local changes.',
    '  -w, --workspace DIR   the workspace (default: the current folder)',
    '  -y, --yes             apply every file without asking (without it: asked per file on a terminal)',
    '      --force           overwrite files that have local changes',
  ],
  checkpoints: [
    'ironbees checkpoints <runId> [options]',
    "  Lists the run's checkpoints: id, label, node, iteration, the files it held and the tests there.",
    '  -w, --workspace DIR   the workspace (default: the current folder)',
    '      --json            one JSON object per checkpoint, one per line',
  ],
  rewind: [
    'ironbees rewind <runId> <checkpoint> [options]',
    "  Gives the files the run touched a checkpoint's bytes and waits there for guidance",
    '  (ironbees resume <runId> --guidance TEXT). <checkpoint>: an id, plan, iteration:N or last-green.',
    '  -w, --workspace DIR   the workspace (default: the current folder)',
    '      --force           overwrite files someone changed since the run last wrote them (else exit 2)',
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
  acp: [
    'ironbees acp [options]',
    '  An Agent Client Protocol agent on stdio, for editors (Rider/IntelliJ, Zed, Neovim): a prompt is a',
    "  run's request; the plan and each change are approved in the editor. Logs go to stderr only.",
    "  -w, --workspace DIR   the workspace of every session (default: each session's folder)",
    '      --trust-workspace runs use what the workspace defines (.ironbees/agents/, .ironbees/mcp.json)',
    '      --model ID        the model for every agent',
    `      --provider ${PROVIDERS}  the provider for every agent (default: agent.yaml, else anthropic)`,
    '      --demo            the scripted demo model answers (no key, no cost)',
    '      --sandbox auto|on|off  build and test in the sandbox (see ironbees run --help)',
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
  serve: [
    'ironbees serve --workspace-root DIR... [options]',
    '  Serves the orchestrator over HTTP (runs, live events, gates, /metrics) and the panel as a web page.',
    '  The first stdout line is `listening http://HOST:PORT`. Bearer token: IRONBEES_SERVE_TOKEN, else',
    '  generated into a private file whose path is printed on stderr, with a one-time login URL for a browser.',
    '      --workspace-root DIR  runs may be started in this folder and below (repeatable, at least one)',
    '      --host H              the address to listen on (default 127.0.0.1)',
    '      --port N              the port (default: any free port)',
    '      --notify-webhook URL  signed POSTs when a run needs a person and when it ends',
    '                            (default: IRONBEES_NOTIFY_WEBHOOK; signed with IRONBEES_NOTIFY_SECRET)',
    '      --trust-workspace     runs use what their workspace defines (.ironbees/agents/, .ironbees/mcp.json)',
    '      --demo                runs use the scripted demo model',
    '      --sandbox auto|on|off  build and test in the sandbox (see ironbees run --help)',
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
