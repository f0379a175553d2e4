// What a contributor writes to add a toy agent (the notary: reads the request, submits a one-line
// note) and a toy state (NOTE: the notary runs after a passing DECIDE, then SUCCESS), one entry per
// step of CONTRIBUTING.md's recipes. Each edit of an existing file is anchored on text that file
// holds; a missing anchor fails the scaffold with the file and the anchor named.
// rewrite-imports: skip-file (the files written below import from where they will sit in the copy)

export const AGENT = 'notary';
export const STATE = 'NOTE';
export const TERMINAL_TOOL = 'submit_note';

/** One step: the file the recipe names and what it becomes (`before` is the file as it is, or null for a new file). */
export interface RecipeStep {
  recipe: 'Add a workflow state' | 'Add an agent';
  file: string;
  edit: (before: string | null) => string;
}

function insertBefore(file: string, text: string, anchor: string | RegExp, insert: string): string {
  const at = typeof anchor === 'string' ? text.indexOf(anchor) : (anchor.exec(text)?.index ?? -1);
  if (at < 0) throw new Error(`${file}: the recipe's anchor ${String(anchor)} is gone; update test/integration/recipe/toy.ts`);
  return text.slice(0, at) + insert + text.slice(at);
}

function replaceOnce(file: string, text: string, anchor: RegExp, replace: (match: string, ...groups: string[]) => string): string {
  if (!anchor.test(text)) throw new Error(`${file}: the recipe's anchor ${String(anchor)} is gone; update test/integration/recipe/toy.ts`);
  return text.replace(anchor, replace);
}

/** Adds an import after the file's last import. */
function withImport(file: string, text: string, line: string): string {
  const imports = [...text.matchAll(/^(?:import [^;]*?|\} from [^;]*?);$/gm)];
  const last = imports.at(-1);
  if (!last) throw new Error(`${file}: no import to add ${line} after`);
  const end = last.index + last[0].length;
  return `${text.slice(0, end)}\n${line}${text.slice(end)}`;
}

const existing = (file: string, before: string | null): string => {
  if (before === null) throw new Error(`${file} does not exist; the recipe edits it`);
  return before;
};

const AGENT_YAML = `# The notary: a toy agent that writes a one-line note about the request.
name: ${AGENT}
description: Writes a one-line note about the run's request.
version: 1.0.0
requiredTools:
  - read_file
  - ${TERMINAL_TOOL}
promptTemplate: prompt.md
llmConfig:
  model: claude-sonnet-4-6
  maxTokens: 1024
toolConfig:
  turnBudget: 4
`;

const PROMPT = 'You write one-line notes about a change. Tools: {{tools}}. End with {{terminalTool}} within {{turnBudget}} turns.\n';

const RUNNER = `// The notary: reads the request and ends its turn with ${TERMINAL_TOOL} {note}.

import { z } from 'zod';
import type { Usage } from '../../model';
import { StagedOverlay } from '../../workspace/overlay';
import { requireAgent } from '../agent-definition';
import { runToolLoop } from '../tool-loop';
import type { AgentRuntime } from '../types';
import { terminalTool } from '../unit';
import type { AgentUnit } from '../unit';

const submitNoteInput = z.object({ note: z.string().describe('One line about the change') });
type SubmitNoteInput = z.infer<typeof submitNoteInput>;

export interface NotaryInput {
  request: string;
}
export interface NotaryOutput {
  note: string;
  usage: Usage;
}

const submitNoteTool = terminalTool<SubmitNoteInput>('${TERMINAL_TOOL}', 'Submit the note. This ends your turn.', submitNoteInput, 'Note received.');

export const notaryAgent: AgentUnit<NotaryInput, NotaryOutput> = {
  name: '${AGENT}',
  terminalTool: submitNoteTool,
  async run(rt: AgentRuntime, input: NotaryInput): Promise<NotaryOutput> {
    const result = await runToolLoop({
      agent: requireAgent(rt.agents, '${AGENT}'),
      runtime: rt,
      toolContext: { host: rt.host, overlay: new StagedOverlay(rt.host), signal: rt.signal },
      userMessage: \`Write a one-line note about this request, then call ${TERMINAL_TOOL}.\\n\\n\${input.request}\`,
      terminal: { name: '${TERMINAL_TOOL}', accept: (raw) => ({ ok: true, value: raw as SubmitNoteInput }) },
    });
    return { note: result.value.note, usage: result.usage };
  },
};
`;

const MACHINE_STATE = `    // The notary writes its note once the change passed.
    ${STATE}: {
      invoke: {
        src: 'note',
        input: ({ context }) => ({ stateId: context.stateId, workflow: context.workflow, request: context.userRequest }),
        onDone: { target: 'SUCCESS', actions: { type: 'addStoppedStepUsage', params: ({ event }) => ({ usage: event.output.usage }) } },
        onError: { target: 'FAILED', actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
`;

const STEP_TYPES = `
export interface NoteInput {
  stateId: string;
  workflow: WorkflowContext;
  request: string;
}
export interface NoteOutput {
  note: string;
  usage: Usage;
}
`;

const STEP_ACTOR = `    note: fromPromise<NoteOutput, NoteInput>(({ input, signal }) =>
      withStepUsage(traceFor(input.stateId), (trace) =>
        units.require<NotaryInput, NotaryOutput>(STEP_AGENTS.note).run(runtime(input, signal, trace), { request: input.request }),
      ),
    ),

`;

/** The steps of "Add a workflow state" and "Add an agent", in the recipes' order. */
export const RECIPE_STEPS: readonly RecipeStep[] = [
  {
    recipe: 'Add a workflow state',
    file: 'src/core/nodes.ts',
    edit: (before) =>
      insertBefore(
        'nodes.ts',
        existing('nodes.ts', before),
        /^ {2}ESCALATE: /m,
        `  ${STATE}: working('Writing a note', 'Note', false, { main: 8 }),\n`,
      ),
  },
  {
    recipe: 'Add a workflow state',
    file: 'src/core/workflow/machine.ts',
    edit: (before) => {
      const file = 'machine.ts';
      let text = withImport(file, existing(file, before), "import type { NoteInput, NoteOutput } from './run-context';");
      text = replaceOnce(
        file,
        text,
        /( {2}actors: \{\n)/,
        (open) => `${open}    note: fromPromise<NoteOutput, NoteInput>(async () => notProvided('note')),\n`,
      );
      // A passing DECIDE goes to the notary rather than straight to SUCCESS.
      text = replaceOnce(file, text, /( {4}DECIDE: \{[\s\S]*?target: )'SUCCESS'/, (_match, head) => `${head}'${STATE}'`);
      return insertBefore(file, text, /^ {4}ESCALATE: \{/m, MACHINE_STATE);
    },
  },
  {
    recipe: 'Add a workflow state',
    file: 'src/core/workflow/run-context.ts',
    edit: (before) => `${existing('run-context.ts', before)}${STEP_TYPES}`,
  },
  {
    recipe: 'Add a workflow state',
    file: 'src/core/workflow/step-actors.ts',
    edit: (before) => {
      const file = 'step-actors.ts';
      let text = withImport(file, existing(file, before), "import type { NoteInput, NoteOutput } from './run-context';");
      text = withImport(file, text, "import type { NotaryInput, NotaryOutput } from '../agents/notary/runner';");
      text = replaceOnce(
        file,
        text,
        /(export const STEP_AGENTS = \{[^}]*?) \} as const/,
        (_match, head) => `${head}, note: '${AGENT}' } as const`,
      );
      return insertBefore(file, text, /^ {4}writeHandoff: /m, STEP_ACTOR);
    },
  },
  { recipe: 'Add an agent', file: `agents/${AGENT}/agent.yaml`, edit: () => AGENT_YAML },
  { recipe: 'Add an agent', file: `agents/${AGENT}/prompt.md`, edit: () => PROMPT },
  { recipe: 'Add an agent', file: `src/core/agents/${AGENT}/runner.ts`, edit: () => RUNNER },
  {
    recipe: 'Add an agent',
    file: 'src/core/agents/builtin.ts',
    edit: (before) => {
      const file = 'builtin.ts';
      const text = withImport(file, existing(file, before), `import { notaryAgent } from './${AGENT}/runner';`);
      return replaceOnce(file, text, /new AgentRegistry\(\[([^\]]*)\]\)/, (_match, units) => `new AgentRegistry([${units}, notaryAgent])`);
    },
  },
  // Both recipes: the public node list and the agent table.
  {
    recipe: 'Add a workflow state',
    file: 'docs/contracts.md',
    edit: (before) => {
      const file = 'contracts.md';
      const text = replaceOnce(file, existing(file, before), /(`currentNode` is one of [^.]*?\bREVIEW,)/, (head) => `${head} ${STATE},`);
      return insertBefore(file, text, /^\| validator \|/m, `| ${AGENT} | \`read_file\` | \`${TERMINAL_TOOL}\` \`{note}\` |\n`);
    },
  },
];

/** The agent's own new test: the bundled notary loads and the demo model drives it to its terminal tool. */
export const OWN_TEST = {
  file: `test/unit/agents/${AGENT}.test.ts`,
  text: `import assert from 'node:assert/strict';
import * as path from 'node:path';
import { builtinAgentRegistry, createDefaultToolRegistry } from '../../../src/core/agents/builtin';
import { loadAgents } from '../../../src/core/agents/loader';
import type { NotaryInput, NotaryOutput } from '../../../src/core/agents/notary/runner';
import { ScriptedModelClient } from '../../../src/core/llm/scripted';
import { demoAnswer } from '../../../src/core/llm/providers/demo/demo-model';
import { REPO_ROOT, agentRuntime, copyCalculator } from './agent-harness';

describe('the notary', () => {
  it('is bundled, registered and driven by the demo model to ${TERMINAL_TOOL}', async () => {
    const root = await copyCalculator();
    const units = builtinAgentRegistry();
    const tools = createDefaultToolRegistry(units);
    const agents = await loadAgents({ bundledDir: path.join(REPO_ROOT, 'agents'), workspaceRoot: root, knownTools: tools.names(), units });
    const model = new ScriptedModelClient((request) => demoAnswer(request));
    const rt = { ...(await agentRuntime(root, model)), tools, agents };
    const output = await units.require<NotaryInput, NotaryOutput>('${AGENT}').run(rt, { request: 'Fix Divide' });
    assert.match(output.note, /^\\[scripted demo model, not an LLM\\]/);
    assert.equal(model.requests.length, 1);
    assert.deepEqual(model.requests[0].tools.map((tool) => tool.name), ['read_file', '${TERMINAL_TOOL}']);
  });
});
`,
};
