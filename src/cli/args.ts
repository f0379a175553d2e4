// Turns argv into a typed command, or a UsageError that says exactly what is wrong. Pure: no file
// system, no environment, so every rule here is unit-tested. Checks that need the disk (does the
// workspace exist?) happen in the commands, before anything is changed.

import { parseArgs } from 'node:util';
import * as path from 'node:path';
import { DEFAULT_MAX_ITERATIONS, DEFAULT_REVIEW_THRESHOLD, REVIEW_MODES } from '../core/model';
import type { DiffApprovalPolicy, PlanApprovalPolicy, ReviewMode } from '../core/model';
import { UsageError } from './exit-codes';
import { PROVIDER_NAMES } from '../core/llm/providers/choice';
import type { ProviderName } from '../core/llm/providers/choice';
import type { RunBudget } from '../core/workflow/budget';
import { COMMAND_NAMES } from './command-names';
import { SANDBOX_MODES } from '../core/platform/sandbox';
import type { SandboxMode } from '../core/platform/sandbox';
import type { CommandName } from './command-names';
import { choiceOption, integerOption, onePositional, secondsOption, stringValue } from './option-values';
import type { Values } from './option-values';
import {
  MAX_ITERATIONS_LIMIT,
  acceptKnownFailures,
  activityOptions,
  budgetOptions,
  contextOption,
  fallbackOptions,
  parallelOption,
  worktreeOptions,
} from './run-options';
import type { ActivityLevel } from './run-options';
import { parseBench } from './bench-args';
import { parseAcp } from './acp-args';
import { parseMcp } from './mcp-args';
import type { AcpArgs } from './acp-args';

export type { AcpArgs } from './acp-args';

import type { ApplyArgs, BenchArgs, McpArgs, RevertArgs, RunsArgs, TraceArgs } from './arg-types';

export type { ApplyArgs, BenchArgs, McpArgs, RevertArgs, RunsArgs, TraceArgs } from './arg-types';
import { SERVE_OPTIONS, parseServe, webhookOption } from './args-serve';
import type { ServeArgs } from './args-serve';

export { COMMAND_NAMES } from './command-names';
export type { ServeArgs } from './args-serve';
export type { CommandName } from './command-names';
import { guidanceOption, parseCheckpoints, parseRewind, type CheckpointsArgs, type RewindArgs } from './checkpoint-args';
export type { CheckpointsArgs, RewindArgs } from './checkpoint-args';

/** Generous on purpose: a clean .NET build on a small machine can take minutes. */
export const DEFAULT_BUILD_TIMEOUT_SECONDS = 600;
export const DEFAULT_TEST_TIMEOUT_SECONDS = 600;

export { ACTIVITY_LEVELS } from './run-options';
export type { ActivityLevel } from './run-options';

export interface RunArgs {
  command: 'run';
  request: string;
  workspace: string;
  /** --trust-workspace: the workspace's own agents and MCP servers are used (core/runtime/trust.ts). */
  trustWorkspace: boolean;
  yes: boolean;
  /** --accept-known-failures: with --yes, the plan's `knownFailures` excuse those tests (without it, nothing is excused). */
  acceptKnownFailures?: boolean;
  json: boolean;
  demo: boolean;
  /** --activity: how much of the live activity is printed on stderr (default normal). */
  activity: ActivityLevel;
  /** --activity-json: the live activity as JSON lines on stderr instead. */
  activityJson: boolean;
  maxIterations: number;
  model?: string;
  /** --provider; absent = each agent.yaml's llmConfig.provider, else anthropic. */
  provider?: ProviderName;
  planApproval: PlanApprovalPolicy;
  diffApproval: DiffApprovalPolicy;
  buildTimeoutMs: number;
  testTimeoutMs: number;
  /** --agent-timeout SECONDS, in ms: how long an agent may be silent; each role's default when absent. */
  agentTimeoutMs?: number;
  /** As typed; resolved against the workspace (and checked) by the run command. */
  target?: string;
  /** --min-call-interval SECONDS, in ms: the least time between two model calls. */
  minCallIntervalMs?: number;
  /** --fallback-provider and --fallback-model, given together. */
  fallback?: { provider: ProviderName; model: string };
  /** --max-cost, --max-tokens, --max-minutes; absent when none was given. */
  budget?: RunBudget;
  /** --context FILE (repeatable), absolute: extra instructions for every agent. */
  contextFiles?: string[];
  /** --sandbox: builds and tests in the sandbox (default auto: where one is available). */
  sandbox: SandboxMode;
  /** --worktree: the run works in a git worktree of its own, on branch ironbees/<runId>. */
  worktree?: boolean;
  /** --worktrees-dir DIR (absolute): where its worktree is made (default <workspace>/.ironbees/worktrees). */
  worktreesDir?: string;
  /** --notify-webhook URL: signed POSTs when the run needs a person and when it ends. */
  notifyWebhook?: string;
  /** --parallel N (default 1): at most N ready phases run at once, each in a git worktree of its own. */
  parallel?: number;
  /** --review and --review-threshold (default required, 8). */
  review: { mode: ReviewMode; threshold: number };
}

export interface ResumeArgs {
  command: 'resume';
  runId: string;
  workspace: string;
  trustWorkspace: boolean;
  yes: boolean;
  acceptKnownFailures?: boolean;
  json: boolean;
  demo: boolean;
  activity: ActivityLevel;
  activityJson: boolean;
  /** --sandbox given again; absent: the run keeps the setting it was started with. */
  sandbox?: SandboxMode;
  /** --guidance TEXT: the answer at the run's WAIT_HUMAN (after an escalation or a rewind). */
  guidance?: string;
  /** --notify-webhook URL: signed POSTs when the run needs a person and when it ends. */
  notifyWebhook?: string;
}

export type CliCommand =
  | AcpArgs
  | BenchArgs
  | McpArgs
  | ServeArgs
  | RunArgs
  | ResumeArgs
  | RunsArgs
  | RevertArgs
  | ApplyArgs
  | TraceArgs
  | CheckpointsArgs
  | RewindArgs
  | { command: 'help'; topic?: CommandName }
  | { command: 'version' };

type OptionSpec = { type: 'string' | 'boolean'; short?: string; multiple?: boolean };

const COMMON: Record<string, OptionSpec> = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
};
const WORKSPACE: Record<string, OptionSpec> = { workspace: { type: 'string', short: 'w' } };
const TRUST: Record<string, OptionSpec> = { 'trust-workspace': { type: 'boolean' } };
const DRIVE: Record<string, OptionSpec> = {
  yes: { type: 'boolean', short: 'y' },
  'accept-known-failures': { type: 'boolean' },
  json: { type: 'boolean' },
  demo: { type: 'boolean' },
  activity: { type: 'string' },
  'activity-json': { type: 'boolean' },
  sandbox: { type: 'string' },
};

const OPTIONS: Record<CommandName, Record<string, OptionSpec>> = {
  run: {
    ...COMMON,
    ...WORKSPACE,
    ...TRUST,
    ...DRIVE,
    'max-iterations': { type: 'string' },
    model: { type: 'string' },
    provider: { type: 'string' },
    context: { type: 'string', multiple: true },
    'fallback-provider': { type: 'string' },
    'min-call-interval': { type: 'string' },
    'fallback-model': { type: 'string' },
    'max-cost': { type: 'string' },
    'max-tokens': { type: 'string' },
    'max-minutes': { type: 'string' },
    'plan-approval': { type: 'string' },
    'diff-approval': { type: 'string' },
    'build-timeout': { type: 'string' },
    'test-timeout': { type: 'string' },
    'agent-timeout': { type: 'string' },
    target: { type: 'string' },
    worktree: { type: 'boolean' },
    'worktrees-dir': { type: 'string' },
    parallel: { type: 'string' },
    'notify-webhook': SERVE_OPTIONS['notify-webhook'],
    review: { type: 'string' },
    'review-threshold': { type: 'string' },
  },
  // A resumed run keeps the context it was started with (approval policy, limits, model), so only
  // how this session drives it can be chosen.
  resume: { ...COMMON, ...WORKSPACE, ...TRUST, ...DRIVE, guidance: { type: 'string' }, 'notify-webhook': SERVE_OPTIONS['notify-webhook'] },
  runs: { ...COMMON, ...WORKSPACE, json: { type: 'boolean' } },
  revert: { ...COMMON, ...WORKSPACE },
  apply: { ...COMMON, ...WORKSPACE, yes: { type: 'boolean', short: 'y' }, force: { type: 'boolean' } },
  trace: { ...COMMON, ...WORKSPACE, json: { type: 'boolean' } },
  checkpoints: { ...COMMON, ...WORKSPACE, json: { type: 'boolean' } },
  rewind: { ...COMMON, ...WORKSPACE, force: { type: 'boolean' } },
  mcp: {
    ...COMMON,
    ...WORKSPACE,
    ...TRUST,
    http: { type: 'boolean' },
    port: { type: 'string' },
    token: { type: 'string' },
    demo: { type: 'boolean' },
    sandbox: { type: 'string' },
  },
  acp: {
    ...COMMON,
    ...WORKSPACE,
    ...TRUST,
    demo: { type: 'boolean' },
    model: { type: 'string' },
    provider: { type: 'string' },
    sandbox: { type: 'string' },
  },
  serve: { ...COMMON, ...TRUST, ...SERVE_OPTIONS },
  bench: {
    ...COMMON,
    out: { type: 'string' },
    demo: { type: 'boolean' },
    model: { type: 'string' },
    provider: { type: 'string' },
    'max-cost': { type: 'string' },
    'max-iterations': { type: 'string' },
    sandbox: { type: 'string' },
    keep: { type: 'boolean' },
  },
};

function isCommandName(value: string): value is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(value);
}

/** `cwd` resolves a relative --workspace; the result is always absolute. */
export function parseCliArgs(argv: readonly string[], cwd: string): CliCommand {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError('No command given.');
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = rest[0];
    return { command: 'help', topic: topic !== undefined && isCommandName(topic) ? topic : undefined };
  }
  if (first === '--version' || first === '-v') return { command: 'version' };
  if (first.startsWith('-')) throw new UsageError(`Unknown option ${first}; put the command first.`);
  if (!isCommandName(first)) throw new UsageError(`Unknown command "${first}". Commands: ${COMMAND_NAMES.join(', ')}.`);

  const { values, positionals } = parseOptions(first, rest);
  if (values.help) return { command: 'help', topic: first };
  if (values.version) return { command: 'version' };
  const workspace = path.resolve(cwd, stringValue(values, 'workspace') ?? '.');

  switch (first) {
    case 'run':
      return parseRun(values, positionals, workspace, cwd);
    case 'resume':
      return {
        command: 'resume',
        runId: onePositional(positionals, 'resume', 'a run id (see `ironbees runs`)'),
        workspace,
        trustWorkspace: values['trust-workspace'] === true,
        yes: values.yes === true,
        ...acceptKnownFailures(values),
        json: values.json === true,
        demo: values.demo === true,
        ...activityOptions(values),
        ...(values.sandbox !== undefined ? { sandbox: choiceOption(values, 'sandbox', SANDBOX_MODES, 'auto', 'resume') } : {}),
        ...guidanceOption(values),
        ...webhookOption(values, 'resume'),
      };
    case 'runs':
      if (positionals.length) throw new UsageError(`runs takes no arguments (got "${positionals[0]}").`, 'runs');
      return { command: 'runs', workspace, json: values.json === true };
    case 'revert':
      return { command: 'revert', runId: onePositional(positionals, 'revert', 'a run id (see `ironbees runs`)'), workspace };
    case 'apply':
      return {
        command: 'apply',
        runId: onePositional(positionals, 'apply', 'a run id (see `ironbees runs`)'),
        workspace,
        yes: values.yes === true,
        force: values.force === true,
      };
    case 'trace':
      return {
        command: 'trace',
        runId: onePositional(positionals, 'trace', 'a run id (see `ironbees runs`)'),
        workspace,
        json: values.json === true,
      };
    case 'checkpoints':
      return parseCheckpoints(values, positionals, workspace);
    case 'rewind':
      return parseRewind(values, positionals, workspace);
    case 'mcp':
      return parseMcp(values, positionals, workspace);
    case 'bench':
      return parseBench(values, positionals, cwd);
    case 'acp':
      return parseAcp(values, positionals, cwd);
    case 'serve':
      return parseServe(values, positionals, cwd);
  }
}

function parseOptions(command: CommandName, args: readonly string[]): { values: Values; positionals: string[] } {
  try {
    const parsed = parseArgs({ args: [...args], options: OPTIONS[command], strict: true, allowPositionals: true });
    return { values: parsed.values as Values, positionals: parsed.positionals };
  } catch (error) {
    // parseArgs' own messages are precise ("Unknown option '--foo'"); keep them, add the command.
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${command}: ${message}`, command);
  }
}

function parseRun(values: Values, positionals: string[], workspace: string, cwd: string): RunArgs {
  if (positionals.length === 0) throw new UsageError('run needs a request, e.g. ironbees run "Fix the failing Calculator test".', 'run');
  if (positionals.length > 1) {
    throw new UsageError(`run takes one request; put it in quotes (got ${positionals.length} words: ${positionals.join(' ')}).`, 'run');
  }
  const request = positionals[0].trim();
  if (!request) throw new UsageError('The request is empty; say what the agent should do.', 'run');
  const model = stringValue(values, 'model');
  if (model !== undefined && !model.trim()) throw new UsageError('--model needs a model id, e.g. --model claude-sonnet-4-5.', 'run');
  const target = stringValue(values, 'target');
  if (target !== undefined && !target.trim()) throw new UsageError('--target needs a path to a .sln, .slnx or project file.', 'run');
  return {
    command: 'run',
    request,
    workspace,
    trustWorkspace: values['trust-workspace'] === true,
    yes: values.yes === true,
    ...acceptKnownFailures(values),
    json: values.json === true,
    demo: values.demo === true,
    ...activityOptions(values),
    maxIterations: integerOption(values, 'max-iterations', DEFAULT_MAX_ITERATIONS, MAX_ITERATIONS_LIMIT),
    model: model?.trim(),
    ...(values.provider !== undefined ? { provider: choiceOption(values, 'provider', PROVIDER_NAMES, 'anthropic') } : {}),
    planApproval: choiceOption(values, 'plan-approval', ['always', 'never'] as const, 'always'),
    diffApproval: choiceOption(values, 'diff-approval', ['always', 'first', 'never'] as const, 'always'),
    buildTimeoutMs: secondsOption(values, 'build-timeout', DEFAULT_BUILD_TIMEOUT_SECONDS),
    testTimeoutMs: secondsOption(values, 'test-timeout', DEFAULT_TEST_TIMEOUT_SECONDS),
    ...(stringValue(values, 'agent-timeout') !== undefined ? { agentTimeoutMs: secondsOption(values, 'agent-timeout', 0) } : {}),
    target: target?.trim(),
    sandbox: choiceOption(values, 'sandbox', SANDBOX_MODES, 'auto'),
    review: {
      mode: choiceOption(values, 'review', REVIEW_MODES, 'required'),
      threshold: integerOption(values, 'review-threshold', DEFAULT_REVIEW_THRESHOLD, 10),
    },
    ...contextOption(values, cwd),
    ...budgetOptions(values),
    ...fallbackOptions(values),
    ...(values['min-call-interval'] !== undefined ? { minCallIntervalMs: secondsOption(values, 'min-call-interval', 0) } : {}),
    ...worktreeOptions(values, cwd),
    ...parallelOption(values),
    ...webhookOption(values, 'run'),
  };
}
