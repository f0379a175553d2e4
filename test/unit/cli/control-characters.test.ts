// What the person reads is what the model wrote: a plan, a diff, a file name or an error carrying
// terminal control sequences (OSC 52 clipboard write, OSC 0 title, clear screen, C1 CSI, BEL) is
// shown with them written out as text at every CLI gate; no raw ESC/BEL/C1 byte reaches the terminal.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli/app';
import type { CliDeps } from '../../../src/cli/app';
import { writeLine } from '../../../src/cli/terminal';
import { StderrLines } from '../../../src/cli/stderr-lines';
import { terminalLine, terminalSafe } from '../../../src/cli/render/terminal-text';
import { askToolDecision } from '../../../src/cli/tool-approvals';
import { LinePrompter } from '../../../src/cli/prompts';
import type { ExecutionPlan, FileEdit } from '../../../src/core/model';
import { visibleControls } from '../../../src/core/platform/text';
import { makeState } from './fixtures';
import { renderPlan } from '../../../src/cli/render/plan';
import { renderFileEdit } from '../../../src/cli/render/diff';
import { describeTransition } from '../../../src/cli/render/state';
import { FakeOrchestrator, fsHost, testIo } from './fakes';
import pc from 'picocolors';

const CLIPBOARD = '\x1b]52;c;cm0gLXJmIH4=\x07';
const CLEAR = '\x1b[2J';
const TITLE = '\x1b]0;approved\x07';
const C1_CSI = '\x9b31m';
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const PLAN: ExecutionPlan = {
  summary: `Fix Divide.${CLEAR}Nothing to see here${CLIPBOARD}`,
  steps: [{ number: 1, description: `Divide${TITLE}`, actionType: 'MODIFY', filePath: `src/Calc${C1_CSI}.cs`, rationale: 'bell\x07' }],
  affectedFiles: [`src/Calc${C1_CSI}.cs`],
  complexity: 'LOW',
};
const EDIT: FileEdit = {
  filePath: `src/Calc${C1_CSI}.cs`,
  type: 'MODIFY',
  originalContent: 'a * b\r\n',
  newContent: 'a / b\r\n',
  diffText: `--- src/Calc.cs\n+++ src/Calc.cs\n@@ -1,1 +1,1 @@\n-a * b\r\n+a / b${CLIPBOARD}${CLEAR}\r\n`,
};

describe('control characters at the CLI gates', () => {
  let workspace: string;
  beforeEach(async () => {
    workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-cli-'));
    await fs.writeFile(path.join(workspace, 'App.sln'), '');
  });
  afterEach(() => fs.rm(workspace, { recursive: true, force: true }));

  it('visibleControls writes every unsafe control out and keeps newline, tab and a CRLF line end', () => {
    assert.equal(
      visibleControls(`a${CLIPBOARD}b${CLEAR}c\u202ed\x00e\x7ff\x9bg\th\r\ni\rj`),
      'a\\x1b]52;c;cm0gLXJmIH4=\\x07b\\x1b[2Jc\\u202ed\\x00e\\x7ff\\x9bg\th\r\ni\\x0dj',
    );
    assert.equal(visibleControls(visibleControls(CLIPBOARD)), visibleControls(CLIPBOARD), 'idempotent');
  });

  it('terminalSafe (the activity printer) shows them as text too; terminalLine keeps only our colours', () => {
    assert.equal(terminalSafe(`\x1b]0;title\x07a\x1b[1Ab\tc\r\nd\x00\x9b`), '\\x1b]0;title\\x07a\\x1b[1Ab c\r\nd\\x00\\x9b');
    const coloured = pc.createColors(true).red('red');
    assert.equal(terminalLine(`${coloured} ${CLEAR}${TITLE}`), `${coloured} \\x1b[2J\\x1b]0;approved\\x07`);
  });

  it('the renderers make the model text visible themselves, before colouring it', () => {
    const colours = pc.createColors(true);
    // eslint-disable-next-line no-control-regex
    const notOurColour = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '');
    for (const text of [
      renderPlan(PLAN, colours),
      renderFileEdit(EDIT, colours),
      describeTransition(null, makeState({ plan: PLAN, metadata: { error: CLEAR } }), colours).join('\n'),
    ]) {
      assert.ok(!RAW_CONTROL.test(notOurColour(text).replace(/\r(\n|$)/g, '$1')), JSON.stringify(text));
    }
  });

  it('the plan gate, the per-file diff gate and the escalation print no raw control byte', async () => {
    const orchestrator = new FakeOrchestrator(async function* (run) {
      yield makeState({ currentNode: 'WAIT_PLAN_APPROVAL', plan: PLAN });
      await run.decision();
      yield makeState({ currentNode: 'WAIT_DIFF_APPROVAL', plan: PLAN, iterationCount: 1, codeDiffs: [EDIT] });
      await run.decision();
      yield makeState({
        currentNode: 'WAIT_HUMAN',
        plan: PLAN,
        iterationCount: 1,
        metadata: { error: `failed ${CLEAR}`, handoffPath: 'H.md' },
      });
      await run.decision();
      yield makeState({ currentNode: 'CANCELLED', iterationCount: 1 });
    });
    const deps: Partial<CliDeps> = {
      createRuntime: async (options) => ({ host: fsHost(options.workspaceRoot), orchestrator }),
      createHost: (root) => fsHost(root),
    };
    const io = testIo(['a', 's', 'y', 's'], workspace);
    await runCli(['run', 'Fix Divide', '--target', 'App.sln'], io, deps);
    const err = io.err();
    assert.ok(!RAW_CONTROL.test(err.replace(/\r\n/g, '\n')), JSON.stringify(err));
    assert.ok(err.includes('Fix Divide.\\x1b[2JNothing to see here\\x1b]52;c;cm0gLXJmIH4=\\x07'), err);
    assert.ok(err.includes('+a / b\\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b[2J'), err);
    assert.ok(err.includes('Accept MODIFY src/Calc\\x9b31m.cs? [y/n]'), err);
    // The decision names the file as the model wrote it: the orchestrator matches it byte for byte.
    assert.deepEqual(orchestrator.decisions.slice(0, 2), [
      { type: 'APPROVE' },
      { type: 'APPROVE', files: [{ filePath: EDIT.filePath, accepted: true }] },
    ]);
  });

  it('the tool approval shows the call as text', async () => {
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const stdin = new PassThrough();
    stdin.end('n\n\n');
    const prompter = new LinePrompter({ input: stdin, output: stderr, terminal: false });
    await askToolDecision({ prompter, show: (text) => writeLine(stderr, text), colors: pc.createColors(false) }, {
      tool: `deploy${TITLE}`,
      description: `ships${CLEAR}`,
      input: { note: `x${C1_CSI}` },
    } as never);
    prompter.close();
    assert.ok(!RAW_CONTROL.test(err), JSON.stringify(err));
    assert.ok(err.includes('The agent wants to call deploy\\x1b]0;approved\\x07'), err);
    assert.ok(err.includes('"note": "x\\x9b31m"'), err);
  });

  it('StderrLines, the stderr writer of a followed run, lets no raw control through', () => {
    const stream = new PassThrough();
    const lines = new StderrLines(stream);
    lines.line(`warning ${CLIPBOARD}`);
    lines.words(`streamed ${CLEAR}`);
    assert.equal(stream.read().toString(), 'warning \\x1b]52;c;cm0gLXJmIH4=\\x07\nstreamed \\x1b[2J');
  });
});
