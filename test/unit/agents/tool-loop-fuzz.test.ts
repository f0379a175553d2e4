import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadAgents, requireAgent } from '../../../src/core/agents/loader';
import { runToolLoop } from '../../../src/core/agents/tool-loop';
import { stableJson } from '../../../src/core/agents/loop-detector';
import type { TerminalVerdict } from '../../../src/core/agents/tool-loop';
import type { ModelMessage, ModelResponse, ToolResultBlock } from '../../../src/core/llm/port';
import { ScriptedModelClient, modelTurn, toolUseBlock } from '../../../src/core/llm/scripted';
import { createDefaultToolRegistry } from '../../../src/core/agents/builtin';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import { createNodeHost } from '../../../src/host/node/index';
import { FUZZ_CATEGORIES, FUZZ_DONE, TERMINAL, malformedAnswer, prng } from '../../support/malformed-answers';
import type { FuzzCategory, FuzzWorld } from '../../support/malformed-answers';
import { REPO_ROOT } from './agent-harness';

const ANSWERS = Number(process.env.IRONBEES_FUZZ_ANSWERS ?? 10_000);
const PER_CONVERSATION = 25;
const SEED = 0x15f022;
/** A clear error is short enough to read: no huge input echoed back into the conversation. */
const MAX_ERROR_CHARS = 2_100;
const REFUSAL = 'Not accepted: this fuzz run only ends with its own summary.';

/** Every file under `dir` with its bytes (symbolic links by their target), to prove nothing changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      const abs = path.join(dir, child);
      if (entry.isSymbolicLink()) out[child] = `link → ${fs.readlinkSync(abs)}`;
      else if (entry.isDirectory()) walk(child);
      else out[child] = fs.readFileSync(abs).toString('base64');
    }
  };
  walk('');
  return out;
}

describe(`tool loop fuzz: ${ANSWERS} malformed model answers through the real coder loop`, function () {
  this.timeout(240_000);
  let root: string;
  let workspace: string;
  let world: FuzzWorld;

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ironbees-fuzz-'));
    workspace = path.join(root, 'ws');
    const sentinelDir = path.join(root, 'sentinel');
    fs.mkdirSync(path.join(workspace, 'src'), { recursive: true });
    fs.mkdirSync(path.join(sentinelDir, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(sentinelDir, 'secret.txt'), 'secret: do not read or change\n');
    fs.writeFileSync(path.join(workspace, 'src', 'A.cs'), 'namespace App;\npublic class A { public int Add(int a, int b) => a + b; }\n');
    fs.mkdirSync(path.join(workspace, '.git'));
    fs.writeFileSync(path.join(workspace, '.git', 'config'), '[core]\n');
    // Links inside the workspace that lead out: a folder, a file, and one dangling into the sentinel.
    fs.symlinkSync(sentinelDir, path.join(workspace, 'escape'));
    fs.symlinkSync(path.join(sentinelDir, 'secret.txt'), path.join(workspace, 'leak.cs'));
    fs.symlinkSync(path.join(sentinelDir, 'not-yet'), path.join(workspace, 'dangling'));
    world = { sentinelDir, escapingLinks: ['escape', 'leak.cs', 'dangling'] };
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('answers every one with a clear tool error: 0 crashes, 0 writes outside the workspace, 0 staged edits', async () => {
    const sentinelBefore = snapshot(world.sentinelDir);
    const workspaceBefore = snapshot(workspace);
    const tools = createDefaultToolRegistry();
    const agents = await loadAgents({ bundledDir: path.join(REPO_ROOT, 'agents'), knownTools: tools.names() });
    const coder = requireAgent(agents, 'coder');
    // The real coder definition, with room for a conversation of malformed answers.
    const agent = { ...coder, toolConfig: { ...coder.toolConfig, turnBudget: PER_CONVERSATION + 1, maxMalformed: PER_CONVERSATION + 1 } };
    const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
    const host = createNodeHost(workspace, { logger: silent });
    const rand = prng(SEED);
    const seen = new Map<FuzzCategory, number>();
    const problems: string[] = [];
    let checked = 0;
    let toolErrors = 0;

    /** The loop's answer to `sent` (the newest message of the next request) must be an error for each call. */
    const check = (sent: ModelResponse, category: FuzzCategory, answer: ModelMessage | undefined): void => {
      checked += 1;
      const calls = sent.content.filter((b) => b.type === 'tool_use');
      if (calls.length === 0) {
        if (typeof answer?.content !== 'string' || !answer.content.includes('You must act through a tool call'))
          problems.push(`${category}: no reminder after a plain answer`);
        return;
      }
      const results = Array.isArray(answer?.content) ? answer.content.filter((b): b is ToolResultBlock => b.type === 'tool_result') : [];
      if (results.length !== calls.length) problems.push(`${category}: ${calls.length} calls, ${results.length} results`);
      calls.forEach((call, i) => {
        const result = results[i];
        const what = `${category}: ${call.name} ${JSON.stringify(call.input).slice(0, 120)}`;
        if (!result || result.tool_use_id !== call.id) problems.push(`${what}: not answered in order`);
        else if (result.is_error !== true) problems.push(`${what}: succeeded (${result.content.slice(0, 120)})`);
        else if (result.content.trim() === '' || result.content.length > MAX_ERROR_CHARS)
          problems.push(`${what}: unclear error of ${result.content.length} chars`);
        else toolErrors += 1;
      });
    };

    for (let conversation = 0; conversation * PER_CONVERSATION < ANSWERS; conversation += 1) {
      const sent: Array<{ category: FuzzCategory; response: ModelResponse }> = [];
      const repeats = new Map<string, number>();
      const model = new ScriptedModelClient((request, callIndex) => {
        if (callIndex > 0) check(sent[callIndex - 1].response, sent[callIndex - 1].category, request.messages.at(-1));
        if (callIndex === PER_CONVERSATION) return modelTurn([toolUseBlock(TERMINAL, { summary: FUZZ_DONE })]);
        // A third identical failing call stops the step as stuck (the loop detector, tested on its own):
        // the fuzz keeps each call to at most two repeats per conversation so every answer is met by a tool error.
        let answer = malformedAnswer(rand, world);
        while (tooRepeated(repeats, callKeys(answer.response))) answer = malformedAnswer(rand, world);
        for (const key of callKeys(answer.response)) repeats.set(key, (repeats.get(key) ?? 0) + 1);
        seen.set(answer.category, (seen.get(answer.category) ?? 0) + 1);
        sent.push(answer);
        return answer.response;
      });
      const overlay = new StagedOverlay(host);
      const accept = (input: unknown): TerminalVerdict<string> =>
        (input as { summary: string }).summary === FUZZ_DONE ? { ok: true, value: FUZZ_DONE } : { ok: false, error: REFUSAL };
      const result = await runToolLoop({
        agent,
        runtime: { host, model, tools, agents },
        toolContext: { host, overlay },
        userMessage: 'Fuzz: every answer you get is malformed.',
        terminal: { name: TERMINAL, accept },
      });
      assert.equal(result.value, FUZZ_DONE);
      assert.equal(result.turns, PER_CONVERSATION + 1);
      assert.deepEqual(await overlay.edits(), [], `conversation ${conversation} staged an edit`);
    }

    assert.deepEqual(problems.slice(0, 20), [], `${problems.length} answers were not met with a clear tool error`);
    assert.equal(checked, ANSWERS);
    assert.ok(toolErrors > ANSWERS, `every call answered with an error (${toolErrors})`);
    assert.deepEqual([...seen.keys()].sort(), [...FUZZ_CATEGORIES].sort(), 'every category was generated');
    assert.deepEqual(snapshot(world.sentinelDir), sentinelBefore, 'nothing outside the workspace changed');
    assert.deepEqual(snapshot(workspace), workspaceBefore, 'the workspace on disk is untouched (edits are staged only)');
    if (process.env.IRONBEES_PRINT_FUZZ) console.log(JSON.stringify({ checked, toolErrors, seen: Object.fromEntries(seen) }));
  });
});

/** One key per tool call of an answer: its name and input, as the loop detector compares them. */
function callKeys(response: ModelResponse): string[] {
  return response.content.filter((b) => b.type === 'tool_use').map((b) => `${b.name}\u0000${stableJson(b.input)}`);
}

/** Whether these calls would bring one call to a third identical attempt in the conversation. */
function tooRepeated(repeats: ReadonlyMap<string, number>, keys: readonly string[]): boolean {
  const counts = new Map(repeats);
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return keys.some((key) => (counts.get(key) ?? 0) > 2);
}
