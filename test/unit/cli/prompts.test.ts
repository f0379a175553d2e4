import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import pc from 'picocolors';
import {
  askDiffDecision,
  askEscalationDecision,
  askGateDecision,
  askPlanDecision,
  dropPlanSteps,
  parseStepNumbers,
} from '../../../src/cli/approvals';
import type { GateIo } from '../../../src/cli/approvals';
import { LinePrompter, PromptClosedError } from '../../../src/cli/prompts';
import { CREATE_EDIT, MODIFY_EDIT, PLAN, makeState } from './fixtures';

const colors = pc.createColors(false);

interface Harness {
  io: GateIo;
  input: PassThrough;
  output: () => string;
  prompter: LinePrompter;
}

/** A prompter reading a piped stdin, as `ironbees` does when stdin is not a terminal. */
function harness(answers: string[] | null, end = true): Harness {
  const input = new PassThrough();
  const out = new PassThrough();
  let written = '';
  out.on('data', (chunk: Buffer) => (written += chunk.toString()));
  const prompter = new LinePrompter({ input, output: out, terminal: false });
  const shown: string[] = [];
  if (answers) input.write(answers.map((a) => `${a}\n`).join(''));
  if (end) input.end();
  return {
    input,
    prompter,
    output: () => `${written}${shown.join('\n')}`,
    io: { prompter, colors, show: (text) => shown.push(text) },
  };
}

describe('cli prompts', () => {
  describe('LinePrompter', () => {
    it('answers questions from lines that arrived before they were asked', async () => {
      const h = harness(['first', '  second  ']);
      assert.equal(await h.prompter.ask('Q1? '), 'first');
      assert.equal(await h.prompter.ask('Q2? '), 'second');
      await assert.rejects(h.prompter.ask('Q3? '), (error: unknown) => error instanceof PromptClosedError && error.reason === 'eof');
      assert.match(h.output(), /Q1\? first\nQ2\? second\nQ3\? /);
      h.prompter.close();
    });

    it('waits for a line typed later', async () => {
      const h = harness(null, false);
      const answer = h.prompter.ask('Name? ');
      setTimeout(() => h.input.write('late\n'), 10);
      assert.equal(await answer, 'late');
      h.prompter.close();
    });

    it('cancel() rejects a pending question as an interrupt', async () => {
      const h = harness(null, false);
      const pending = h.prompter.ask('Q? ');
      h.prompter.cancel();
      await assert.rejects(pending, (error: unknown) => error instanceof PromptClosedError && error.reason === 'interrupt');
      h.prompter.close();
    });
  });

  describe('LinePrompter in a terminal', () => {
    function terminal(): { input: PassThrough; prompter: LinePrompter; interrupts: () => number } {
      const input = new PassThrough();
      const output = new PassThrough();
      output.resume();
      let count = 0;
      const prompter = new LinePrompter({ input, output, terminal: true, onInterrupt: () => (count += 1) });
      return { input, prompter, interrupts: () => count };
    }

    it('drops lines typed before the question was asked', async () => {
      const t = terminal();
      const first = t.prompter.ask('Q1? ');
      t.input.write('one\r');
      assert.equal(await first, 'one');
      t.input.write('typed ahead\r');
      await new Promise((resolve) => setImmediate(resolve));
      const second = t.prompter.ask('Q2? ');
      t.input.write('two\r');
      assert.equal(await second, 'two');
      t.prompter.close();
    });

    it('hands Ctrl-C at a prompt on as an interrupt', async () => {
      const t = terminal();
      const pending = t.prompter.ask('Q? ');
      t.input.write('\u0003');
      await assert.rejects(pending, (error: unknown) => error instanceof PromptClosedError && error.reason === 'interrupt');
      assert.equal(t.interrupts(), 1);
      t.prompter.close();
    });
  });

  describe('plan gate', () => {
    it('approves', async () => {
      assert.deepEqual(await askPlanDecision(harness(['a']).io, PLAN), { type: 'APPROVE' });
      assert.deepEqual(await askPlanDecision(harness(['Approve']).io, PLAN), { type: 'APPROVE' });
    });

    it('asks again on an unclear answer, never guessing', async () => {
      const h = harness(['abort', '', 'x', 'a']);
      assert.deepEqual(await askPlanDecision(h.io, PLAN), { type: 'APPROVE' });
      assert.equal(h.output().match(/Please answer a, r, e/g)?.length, 3);
    });

    it('rejects with feedback, insisting on some', async () => {
      assert.deepEqual(await askPlanDecision(harness(['r', '', 'Use decimal, not int']).io, PLAN), {
        type: 'REJECT',
        feedback: 'Use decimal, not int',
      });
    });

    it('edits by dropping steps, renumbering them', async () => {
      const decision = await askPlanDecision(harness(['e', '9', '1,2,3', '2', 'y']).io, PLAN);
      assert.equal(decision.type, 'APPROVE');
      const edited = decision.type === 'APPROVE' ? decision.editedPlan : undefined;
      assert.deepEqual(
        edited?.steps.map((s) => [s.number, s.description]),
        [
          [1, 'Return a + b'],
          [2, 'Tidy the helper'],
        ],
      );
      assert.deepEqual(edited?.affectedFiles, ['src/Calc.cs', 'README.md']);
    });

    it('goes back to the plan question when the edit is abandoned', async () => {
      assert.deepEqual(await askPlanDecision(harness(['e', '', 'e', '1', 'n', 'a']).io, PLAN), { type: 'APPROVE' });
    });

    it('EOF at the plan question is an interrupt, not an approval', async () => {
      await assert.rejects(askPlanDecision(harness([]).io, PLAN), PromptClosedError);
    });

    it('parses step numbers strictly', () => {
      assert.deepEqual(parseStepNumbers('1, 3 3', PLAN), [1, 3]);
      assert.equal(parseStepNumbers('1 4', PLAN), null);
      assert.equal(parseStepNumbers('one', PLAN), null);
      assert.deepEqual(dropPlanSteps(PLAN, []).steps.length, 3);
    });
  });

  describe('diff gate', () => {
    const state = makeState({ currentNode: 'WAIT_DIFF_APPROVAL', codeDiffs: [MODIFY_EDIT, CREATE_EDIT] });

    it('shows every diff, then accepts all', async () => {
      const h = harness(['a']);
      assert.deepEqual(await askDiffDecision(h.io, state), { type: 'APPROVE' });
      // The "MODIFY path (+n -m)" headers are printed once, with the state before the question.
      assert.doesNotMatch(h.output(), /MODIFY src\/Calc\.cs \(\+1 -2\)/);
      assert.match(h.output(), /\+\+\+ (b\/)?src\/Calc\.cs/);
      assert.match(h.output(), /\+ {2}int Add\(int a, int b\) => a \+ b;/);
      assert.match(h.output(), /\+\+\+ (b\/)?tests\/AddTests\.cs/);
    });

    it('rejects all with feedback', async () => {
      assert.deepEqual(await askDiffDecision(harness(['r', 'Keep the signature']).io, state), {
        type: 'REJECT',
        feedback: 'Keep the signature',
      });
    });

    it('selects per file, with a reason for a rejection', async () => {
      assert.deepEqual(await askDiffDecision(harness(['s', 'y', 'n', 'No new test files please']).io, state), {
        type: 'APPROVE',
        files: [
          { filePath: 'src/Calc.cs', accepted: true },
          { filePath: 'tests/AddTests.cs', accepted: false, reason: 'No new test files please' },
        ],
      });
      assert.deepEqual(await askDiffDecision(harness(['select', 'no', '', 'yes']).io, state), {
        type: 'APPROVE',
        files: [
          { filePath: 'src/Calc.cs', accepted: false },
          { filePath: 'tests/AddTests.cs', accepted: true },
        ],
      });
    });
  });

  describe('escalation gate', () => {
    it('stops', async () => {
      assert.deepEqual(await askEscalationDecision(harness(['s']).io), { type: 'STOP' });
    });

    it('continues with guidance and the default or a chosen number of iterations', async () => {
      assert.deepEqual(await askEscalationDecision(harness(['c', 'Look at the rounding', '']).io), {
        type: 'CONTINUE',
        guidance: 'Look at the rounding',
        additionalIterations: 3,
      });
      assert.deepEqual(await askEscalationDecision(harness(['continue', 'Try again', 'lots', '0', '2']).io), {
        type: 'CONTINUE',
        guidance: 'Try again',
        additionalIterations: 2,
      });
    });

    it('routes by the node the run waits at', async () => {
      assert.deepEqual(await askGateDecision(harness(['s']).io, makeState({ currentNode: 'WAIT_HUMAN' })), { type: 'STOP' });
      assert.equal(await askGateDecision(harness([]).io, makeState({ currentNode: 'CODE' })), null);
    });
  });
});
