// Golden conversations (seed 004 §9.3): a scripted model's answers, and what the model was told in
// reply and what would reach disk, recorded once and compared exactly on every run. A golden file
// (`*.golden.json` beside this one) holds the script (`agent`, `input`, `turns`) and the record
// (`told`, `outcome`). `IRONBEES_RECORD_GOLDEN=1 npx mocha test/unit/agents/golden/*.test.ts`
// rewrites the records after an intended change; review the diff like code.

import { promises as fs, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCoder } from '../../../../src/core/agents/coder/runner';
import type { AppliedChange } from '../../../../src/core/agents/coder/applied';
import { runPlanner } from '../../../../src/core/agents/planner/runner';
import type { AgentDefinition } from '../../../../src/core/agents/agent-definition';
import { AgentModeError } from '../../../../src/core/errors';
import type { CodeCheckResult, Host } from '../../../../src/core/host';
import type { ContentBlock, ModelMessage, ModelResponse } from '../../../../src/core/llm/port';
import { ScriptedModelClient } from '../../../../src/core/llm/scripted';
import { EMPTY_USAGE } from '../../../../src/core/model';
import type { Baseline, ErrorContext, ExecutionPlan } from '../../../../src/core/model';
import { StagedOverlay } from '../../../../src/core/workspace/overlay';
import { agentRuntime, copyCalculator } from '../agent-harness';

export interface GoldenScript {
  /** The failure mode this conversation pins down, in words. */
  about: string;
  agent: 'coder' | 'planner';
  input: {
    request: string;
    spec?: string;
    plan?: ExecutionPlan;
    errorContext?: ErrorContext | null;
    iteration?: number;
    applied?: AppliedChange[];
    baseline?: Baseline | null;
  };
  /** Overrides of the bundled agent's toolConfig (a smaller turn budget). */
  toolConfig?: Record<string, number>;
  /** check_code's answers in order (the last one repeats); absent: no compiler engine. */
  codeCheck?: CodeCheckResult[];
  /** Record the first user message too (when what the agent is first told is the point). */
  recordFirstMessage?: boolean;
  /** Files written into the workspace copy before the run. */
  setupFiles?: Record<string, string>;
  /** Workspace files whose content after the run is recorded (null: absent). */
  diskFiles?: string[];
  turns: Array<{ content: ModelResponse['content']; stopReason?: string }>;
}

export interface GoldenRecord {
  /** Per model call from the second on (the first too with recordFirstMessage): the user message it ended with. */
  told: string[][];
  /** Per model call from the second on: the block types of the assistant message before it (what was kept of the answer). */
  kept: string[][];
  outcome: unknown;
  disk: Record<string, string | null>;
}

export type GoldenFile = GoldenScript & Partial<GoldenRecord>;

export const RECORDING = process.env.IRONBEES_RECORD_GOLDEN === '1';

export function goldenFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.golden.json'))
    .sort();
}

export function readGolden(file: string): GoldenFile {
  return JSON.parse(readFileSync(file, 'utf8')) as GoldenFile;
}

export function writeGolden(file: string, golden: GoldenFile): void {
  writeFileSync(file, `${JSON.stringify(golden, null, 2)}\n`);
}

/** Runs the script on a fresh copy of the calculator fixture and returns what happened. */
export async function playGolden(script: GoldenScript): Promise<GoldenRecord> {
  const root = await copyCalculator();
  try {
    for (const [file, text] of Object.entries(script.setupFiles ?? {})) await fs.writeFile(path.join(root, file), text);
    const turns = script.turns.map((turn): ModelResponse => ({
      content: turn.content,
      stopReason: turn.stopReason ?? stopReasonOf(turn.content),
      model: 'scripted',
      usage: EMPTY_USAGE,
    }));
    const model = new ScriptedModelClient(turns);
    const rt = await agentRuntime(root, model);
    if (script.toolConfig) {
      const agents = new Map(rt.agents);
      const def = agents.get(script.agent) as AgentDefinition;
      agents.set(script.agent, { ...def, toolConfig: { ...def.toolConfig, ...script.toolConfig } });
      rt.agents = agents;
    }
    if (script.codeCheck) rt.host = withCodeCheck(rt.host, script.codeCheck);
    let outcome: unknown;
    try {
      outcome = await runAgent(script, rt);
    } catch (error) {
      outcome = { error: error instanceof AgentModeError ? { code: error.code, message: error.message } : { message: String(error) } };
    }
    const from = script.recordFirstMessage ? 0 : 1;
    const told = model.requests.slice(from).map((request) => render(request.messages[request.messages.length - 1]));
    const kept = model.requests.slice(1).map((request) => {
      const assistant = request.messages[request.messages.length - 2];
      return Array.isArray(assistant.content) ? assistant.content.map((block) => block.type) : ['(text)'];
    });
    const disk: Record<string, string | null> = {};
    for (const file of script.diskFiles ?? []) disk[file] = await fs.readFile(path.join(root, file), 'utf8').catch(() => null);
    return { told, kept, outcome, disk };
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

type Runtime = Awaited<ReturnType<typeof agentRuntime>>;

async function runAgent(script: GoldenScript, rt: Runtime): Promise<unknown> {
  const input = script.input;
  if (script.agent === 'planner') {
    const result = await runPlanner(rt, { request: input.request, baseline: input.baseline ?? null });
    return { spec: result.spec, plan: result.plan };
  }
  const result = await runCoder(rt, {
    request: input.request,
    spec: input.spec ?? '',
    plan: input.plan as ExecutionPlan,
    errorContext: input.errorContext ?? null,
    iteration: input.iteration ?? 1,
    overlay: new StagedOverlay(rt.host),
    ...(input.applied ? { applied: input.applied } : {}),
  });
  return {
    summary: result.summary,
    edits: result.edits.map((edit) => ({ filePath: edit.filePath, type: edit.type, diffText: edit.diffText })),
  };
}

function withCodeCheck(host: Host, answers: readonly CodeCheckResult[]): Host {
  let next = 0;
  const codeCheck = { check: async (): Promise<CodeCheckResult> => answers[Math.min(next++, answers.length - 1)] };
  return Object.assign(Object.create(Object.getPrototypeOf(host) as object) as Host, host, { codeCheck });
}

function stopReasonOf(content: ModelResponse['content']): string {
  return content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
}

function render(message: ModelMessage): string[] {
  if (typeof message.content === 'string') return [message.content];
  return message.content.map((block: ContentBlock) => {
    if (block.type === 'tool_result') return `${block.is_error ? '[error] ' : ''}${block.content}`;
    if (block.type === 'text') return block.text;
    return `(${block.type})`;
  });
}
