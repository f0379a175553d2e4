// The scripted demo model, for `ironbees run --demo` without an API key. It is NOT a language
// model and says so in everything it writes. Any agent that ends its turn with a tool gets the least
// answer that tool accepts at once (leastValue). It drives the bundled planner and coder through the
// real tools (list_files, read_file, the text editor) and the real build and tests: it lists the
// C# files, reads them, finds a calculator method with the wrong operator in what it read, plans
// the fix, views the file, and makes the edit with str_replace; the reviewer passes the change and
// points at the line it changed (demo-review.ts). Each answer is worked out from the conversation so
// far, so it needs no state of its own and survives a resumed run.

import type { ModelClient, ModelMessage, ModelRequest, ModelResponse, ToolUseBlock } from '../../port';
import { ScriptedModelClient, modelTurn, textBlock, toolUseBlock } from '../../scripted';
import { findArithmeticBug, stripLineNumbers } from './demo-bug-finder';
import type { ArithmeticBug } from './demo-bug-finder';
import { demoReview } from './demo-review';
import { StreamingDemoClient } from './demo-stream';

export const DEMO_MODEL_ID = 'ironbees-scripted-demo';
const LABEL = '[scripted demo model, not an LLM]';
const EDITOR = 'str_replace_based_edit_tool';

export function createDemoModelClient(): ModelClient {
  return new StreamingDemoClient(new ScriptedModelClient((request) => demoAnswer(request)));
}

interface ToolExchange {
  name: string;
  input: Record<string, unknown>;
  result: string;
  isError: boolean;
}

export function demoAnswer(request: ModelRequest): ModelResponse {
  const toolNames = request.tools.map((tool) => tool.name);
  const history = exchanges(request.messages);
  if (toolNames.includes('submit_plan')) return planTurn(history, firstUserText(request.messages));
  if (toolNames.includes('submit_changes')) return codeTurn(history, firstUserText(request.messages));
  // The reviewer: a passing review at once (the least value would be a failing score of 1).
  if (toolNames.includes('submit_review')) {
    return act(
      `${LABEL} I cannot judge code; passing the change so the person reviews it.`,
      toolUseBlock('submit_review', demoReview(firstUserText(request.messages), LABEL)),
    );
  }
  const terminal = terminalToolOf(request.tools);
  if (terminal) {
    return act(
      `${LABEL} I only know the bundled sample; submitting the least answer ${terminal.name} accepts.`,
      toolUseBlock(terminal.name, leastValue(terminal.inputSchema)),
    );
  }
  return say(`${LABEL} I only know how to drive agents that end their turn with a tool.`);
}

/** Any other agent's terminal tool: the last `submit_*` tool offered (the recipe's names), else the last custom tool. */
function terminalToolOf(tools: ModelRequest['tools']): { name: string; inputSchema: Record<string, unknown> } | undefined {
  const custom = tools.flatMap((tool) => (tool.kind === 'custom' ? [tool] : []));
  return custom.filter((tool) => tool.name.startsWith('submit_')).at(-1) ?? custom.at(-1);
}

/** The smallest value a JSON Schema accepts, as far as the demo needs: required fields, the first of an enum, one item where items are required. */
export function leastValue(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return null;
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if ('const' in s) return s.const;
  const choices = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(choices) && choices.length > 0) return leastValue(choices[0]);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      return Object.fromEntries(required.map((name) => [name, leastValue(properties[name])]));
    }
    case 'array': {
      const count = typeof s.minItems === 'number' ? s.minItems : 0;
      return Array.from({ length: count }, () => leastValue(s.items));
    }
    case 'string':
      return `${LABEL} nothing to report`;
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 1;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

function planTurn(history: ToolExchange[], request: string): ModelResponse {
  const listing = history.find((exchange) => exchange.name === 'list_files' && !exchange.isError);
  if (!listing) {
    return act(`${LABEL} Looking for the C# source files first.`, toolUseBlock('list_files', { pattern: '**/*.cs' }));
  }
  const reads = history.filter((exchange) => exchange.name === 'read_file' && !exchange.isError);
  if (reads.length === 0) {
    const files = sourceFiles(listing.result);
    if (files.length === 0) return submitPlan(null, null, request);
    return act(
      `${LABEL} Reading the source files to find the cause.`,
      ...files.slice(0, 5).map((path) => toolUseBlock('read_file', { path })),
    );
  }
  for (const read of reads) {
    const bug = findArithmeticBug(stripLineNumbers(read.result));
    if (bug) return submitPlan(String(read.input.path), bug, request);
  }
  return submitPlan(String(reads[0].input.path), null, request);
}

function submitPlan(filePath: string | null, bug: ArithmeticBug | null, request: string): ModelResponse {
  const target = filePath ?? 'README.md';
  const spec = bug
    ? `${bug.method} must use the ${bug.rightOperator} operator; ${target} line ${bug.line} uses ${bug.wrongOperator} ` +
      `(\`${bug.lineText.trim()}\`), so ${bug.method} returns the wrong result. After the change the tests of ${bug.method} pass.`
    : `The scripted demo model could not find a calculator method with a wrong operator for the request "${request}". ` +
      'Only the bundled sample is supported; use a real model (ANTHROPIC_API_KEY) for anything else.';
  const plan = {
    summary: bug ? `Fix the operator in ${bug.method} (${target}).` : 'No change the demo model knows how to make.',
    steps: [
      {
        number: 1,
        description: bug
          ? `In ${bug.method}, replace \`${bug.lineText.trim()}\` with \`${bug.fixedLineText.trim()}\`.`
          : 'Review by a person: the scripted demo model found nothing to fix.',
        actionType: 'MODIFY',
        filePath: target,
        rationale: bug
          ? `${bug.method} must compute with ${bug.rightOperator}, as its tests expect.`
          : 'Outside what the demo model can do.',
      },
    ],
    affectedFiles: [target],
    complexity: 'LOW',
  };
  return act(`${LABEL} Found the cause; submitting the plan.`, toolUseBlock('submit_plan', { spec, plan }));
}

function codeTurn(history: ToolExchange[], userMessage: string): ModelResponse {
  const lastSubmit = [...history].reverse().find((exchange) => exchange.name === 'submit_changes');
  if (lastSubmit?.isError) {
    return act(`${LABEL} Submitting as is.`, toolUseBlock('submit_changes', { summary: `${LABEL} No change was needed or possible.` }));
  }
  const target = /`([^`]+\.cs)`/.exec(userMessage)?.[1];
  const edits = history.filter((exchange) => exchange.name === EDITOR && exchange.input.command === 'str_replace');
  const views = history.filter((exchange) => exchange.name === EDITOR && exchange.input.command === 'view' && !exchange.isError);
  if (!target) return submitChanges('The plan names no C# file; nothing to edit.');
  if (views.length === 0)
    return act(`${LABEL} Viewing ${target} before editing it.`, toolUseBlock(EDITOR, { command: 'view', path: target }));
  if (edits.length === 0) {
    const lines = stripLineNumbers(views[views.length - 1].result);
    const bug = findArithmeticBug(lines);
    if (!bug) return submitChanges(`No calculator method with a wrong operator in ${target}; nothing changed.`);
    const repeated = lines.filter((line) => line.text === bug.lineText).length > 1;
    const before = lines.find((line) => line.line === bug.line - 1)?.text;
    // str_replace needs old_str to match once; the line before makes a repeated line unique.
    const oldStr = repeated && before !== undefined ? `${before}\n${bug.lineText}` : bug.lineText;
    const newStr = repeated && before !== undefined ? `${before}\n${bug.fixedLineText}` : bug.fixedLineText;
    return act(
      `${LABEL} ${bug.method} uses ${bug.wrongOperator} where it needs ${bug.rightOperator}; fixing line ${bug.line}.`,
      toolUseBlock(EDITOR, { command: 'str_replace', path: target, old_str: oldStr, new_str: newStr }),
    );
  }
  const last = edits[edits.length - 1];
  if (last.isError) return submitChanges(`The edit of ${target} was refused (${last.result.split('\n')[0]}).`);
  return submitChanges(`Fixed the operator in ${target} (${String(last.input.new_str ?? '').trim()}).`);
}

function submitChanges(summary: string): ModelResponse {
  return act(`${LABEL} Done; the system will build and test.`, toolUseBlock('submit_changes', { summary: `${LABEL} ${summary}` }));
}

function act(text: string, ...calls: ToolUseBlock[]): ModelResponse {
  return modelTurn([textBlock(text), ...calls], { model: DEMO_MODEL_ID });
}

function say(text: string): ModelResponse {
  return modelTurn(text, { model: DEMO_MODEL_ID });
}

/** Source files first, tests after, so the code under test is read first. */
function sourceFiles(listing: string): string[] {
  const paths = listing
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /\.cs$/i.test(line) && !/\s/.test(line));
  const isTest = (path: string): boolean => /tests?[/.]|Tests?\.cs$/i.test(path);
  return [...paths.filter((path) => !isTest(path)), ...paths.filter(isTest)];
}

function firstUserText(messages: readonly ModelMessage[]): string {
  const first = messages.find((message) => message.role === 'user');
  if (!first) return '';
  if (typeof first.content === 'string') return first.content;
  return first.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

function exchanges(messages: readonly ModelMessage[]): ToolExchange[] {
  const calls = new Map<string, { name: string; input: Record<string, unknown> }>();
  const out: ToolExchange[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_use') calls.set(block.id, { name: block.name, input: (block.input ?? {}) as Record<string, unknown> });
      if (block.type === 'tool_result') {
        const call = calls.get(block.tool_use_id);
        if (call) out.push({ ...call, result: block.content, isError: block.is_error === true });
      }
    }
  }
  return out;
}
