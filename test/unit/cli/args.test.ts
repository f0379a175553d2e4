import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { parseCliArgs } from '../../../src/cli/args';
import { workflowContextFor } from '../../../src/cli/commands/run';
import type { McpArgs, ResumeArgs, RunArgs } from '../../../src/cli/args';
import { ExitCode, UsageError, exitCodeForError } from '../../../src/cli/exit-codes';
import { usageText } from '../../../src/cli/usage';
import { DEFAULT_MAX_ITERATIONS } from '../../../src/core/model';

const CWD = path.resolve('/tmp/ws-root');

function usageErrorOf(argv: string[]): UsageError {
  try {
    parseCliArgs(argv, CWD);
  } catch (error) {
    assert.ok(error instanceof UsageError, `expected a UsageError, got ${String(error)}`);
    assert.equal(exitCodeForError(error), ExitCode.USAGE);
    return error;
  }
  assert.fail(`expected ${argv.join(' ')} to be refused`);
}

describe('cli args', () => {
  describe('run', () => {
    it('takes a request with defaults', () => {
      const args = parseCliArgs(['run', 'Fix the failing test'], CWD) as RunArgs;
      assert.equal(args.command, 'run');
      assert.equal(args.request, 'Fix the failing test');
      assert.equal(args.workspace, CWD);
      assert.equal(args.yes, false);
      assert.equal(args.json, false);
      assert.equal(args.demo, false);
      assert.equal(args.maxIterations, DEFAULT_MAX_ITERATIONS);
      assert.equal(args.planApproval, 'always');
      assert.equal(args.diffApproval, 'always');
      assert.equal(args.model, undefined);
      assert.equal(args.target, undefined);
      assert.ok(args.buildTimeoutMs > 0 && args.testTimeoutMs > 0);
    });

    it('reads every option', () => {
      const args = parseCliArgs(
        [
          'run',
          'Add a Subtract method',
          '--workspace',
          'sub/ws',
          '--yes',
          '--json',
          '--demo',
          '--max-iterations',
          '7',
          '--model',
          'claude-x',
          '--plan-approval',
          'never',
          '--diff-approval',
          'first',
          '--build-timeout',
          '90',
          '--test-timeout',
          '1.5',
          '--target',
          'App.sln',
        ],
        CWD,
      ) as RunArgs;
      assert.equal(args.workspace, path.join(CWD, 'sub/ws'));
      assert.deepEqual(
        [args.yes, args.json, args.demo, args.maxIterations, args.model, args.planApproval, args.diffApproval],
        [true, true, true, 7, 'claude-x', 'never', 'first'],
      );
      assert.equal(args.buildTimeoutMs, 90_000);
      assert.equal(args.testTimeoutMs, 1500);
      assert.equal(args.target, 'App.sln');
    });

    it('--accept-known-failures is off unless given, on run and resume', () => {
      assert.equal((parseCliArgs(['run', 'x', '--yes'], CWD) as RunArgs).acceptKnownFailures, undefined);
      assert.equal((parseCliArgs(['run', 'x', '--yes', '--accept-known-failures'], CWD) as RunArgs).acceptKnownFailures, true);
      assert.equal(
        (parseCliArgs(['resume', 'r-1', '--accept-known-failures'], CWD) as { acceptKnownFailures?: boolean }).acceptKnownFailures,
        true,
      );
    });

    it('accepts short flags and an absolute workspace, options before the request', () => {
      const args = parseCliArgs(['run', '-y', '-w', '/abs/ws', 'Do it'], CWD) as RunArgs;
      assert.equal(args.yes, true);
      assert.equal(args.workspace, path.resolve('/abs/ws'));
      assert.equal(args.request, 'Do it');
    });

    it('refuses a missing, empty or unquoted request', () => {
      assert.match(usageErrorOf(['run']).message, /needs a request/);
      assert.match(usageErrorOf(['run', '   ']).message, /empty/);
      const split = usageErrorOf(['run', 'fix', 'it']);
      assert.match(split.message, /quotes/);
      assert.equal(split.command, 'run');
    });

    for (const [flag, value, pattern] of [
      ['--max-iterations', '0', /whole number from 1/],
      ['--max-iterations', 'five', /whole number/],
      ['--max-iterations', '2.5', /whole number/],
      ['--plan-approval', 'sometimes', /always, never/],
      ['--diff-approval', 'maybe', /always, first, never/],
      ['--sandbox', 'sometimes', /^--sandbox must be one of auto, on, off \(got "sometimes"\)\.$/],
      ['--build-timeout', '-3', /./],
      ['--test-timeout', 'soon', /seconds/],
      ['--test-timeout', '0', /positive/],
      ['--agent-timeout', '0', /^--agent-timeout is in seconds and must be a positive number/],
      ['--agent-timeout', 'never', /^--agent-timeout is in seconds/],
      ['--model', ' ', /model id/],
    ] as const) {
      it(`refuses ${flag} ${value}`, () => {
        assert.match(usageErrorOf(['run', 'x', flag, value]).message, pattern);
      });
    }

    it("--agent-timeout: absent unless given (each agent's default), in ms when given, into the run's context", () => {
      const plain = parseCliArgs(['run', 'x'], CWD) as RunArgs;
      assert.equal(plain.agentTimeoutMs, undefined);
      assert.equal(workflowContextFor(plain, undefined).agentTimeoutMs, undefined);
      const given = parseCliArgs(['run', 'x', '--agent-timeout', '2.5'], CWD) as RunArgs;
      assert.equal(given.agentTimeoutMs, 2500);
      assert.equal(workflowContextFor(given, undefined).agentTimeoutMs, 2500);
    });

    it('--sandbox: auto unless given; on and off as given, for run, resume and mcp', () => {
      assert.equal((parseCliArgs(['run', 'x'], '/w') as RunArgs).sandbox, 'auto');
      assert.equal((parseCliArgs(['run', 'x', '--sandbox', 'off'], '/w') as RunArgs).sandbox, 'off');
      assert.equal((parseCliArgs(['resume', 'r1'], '/w') as ResumeArgs).sandbox, undefined);
      assert.equal((parseCliArgs(['resume', 'r1', '--sandbox', 'on'], '/w') as ResumeArgs).sandbox, 'on');
      assert.equal((parseCliArgs(['mcp', '--sandbox', 'on'], '/w') as McpArgs).sandbox, 'on');
    });

    it('refuses unknown flags and flags without their value', () => {
      assert.match(usageErrorOf(['run', 'x', '--frobnicate']).message, /--frobnicate/);
      assert.match(usageErrorOf(['run', 'x', '--max-iterations']).message, /max-iterations/);
      assert.match(usageErrorOf(['run', 'x', '--yes=3']).message, /yes/);
    });
  });

  describe('--activity and --activity-json', () => {
    it('default to normal human lines; take quiet, normal or verbose; refuse anything else', () => {
      const run = (...flags: string[]) => parseCliArgs(['run', 'x', ...flags], CWD) as { activity: string; activityJson: boolean };
      assert.deepEqual([run().activity, run().activityJson], ['normal', false]);
      assert.equal((run('--activity', 'quiet') as { activity: string }).activity, 'quiet');
      assert.equal((run('--activity', 'VERBOSE') as { activity: string }).activity, 'verbose');
      assert.equal((run('--activity-json') as { activityJson: boolean }).activityJson, true);
      assert.equal(
        usageErrorOf(['run', 'x', '--activity', 'loud']).message,
        '--activity must be one of quiet, normal, verbose (got "loud").',
      );
      assert.equal((parseCliArgs(['resume', 'r-1', '--activity', 'quiet'], CWD) as { activity: string }).activity, 'quiet');
    });
  });

  describe('resume, runs, revert', () => {
    it('resume takes a run id and the drive flags', () => {
      assert.deepEqual(parseCliArgs(['resume', 'r-1', '--yes', '--json', '--demo', '-w', 'ws'], CWD), {
        command: 'resume',
        runId: 'r-1',
        workspace: path.join(CWD, 'ws'),
        trustWorkspace: false,
        yes: true,
        json: true,
        demo: true,
        activity: 'normal',
        activityJson: false,
      });
    });

    it('--trust-workspace is taken by run, resume and mcp, and by no other command', () => {
      assert.equal((parseCliArgs(['run', 'Fix it', '--trust-workspace'], CWD) as { trustWorkspace: boolean }).trustWorkspace, true);
      assert.equal((parseCliArgs(['run', 'Fix it', '--yes'], CWD) as { trustWorkspace: boolean }).trustWorkspace, false);
      assert.equal((parseCliArgs(['resume', 'r-1', '--trust-workspace'], CWD) as { trustWorkspace: boolean }).trustWorkspace, true);
      assert.equal((parseCliArgs(['mcp', '--trust-workspace'], CWD) as { trustWorkspace: boolean }).trustWorkspace, true);
      assert.equal((parseCliArgs(['mcp'], CWD) as { trustWorkspace: boolean }).trustWorkspace, false);
      assert.match(usageErrorOf(['runs', '--trust-workspace']).message, /trust-workspace/);
    });

    it('resume refuses settings that belong to the persisted run', () => {
      assert.match(usageErrorOf(['resume', 'r-1', '--max-iterations', '3']).message, /max-iterations/);
      assert.match(usageErrorOf(['resume']).message, /run id/);
      assert.match(usageErrorOf(['resume', 'a', 'b']).message, /exactly one/);
    });

    it('runs lists, with --json', () => {
      assert.deepEqual(parseCliArgs(['runs', '--json'], CWD), { command: 'runs', workspace: CWD, json: true });
      assert.deepEqual(parseCliArgs(['runs'], CWD), { command: 'runs', workspace: CWD, json: false });
      assert.match(usageErrorOf(['runs', 'extra']).message, /no arguments/);
      assert.match(usageErrorOf(['runs', '--yes']).message, /yes/);
    });

    it('revert takes a run id and nothing that drives a run', () => {
      assert.deepEqual(parseCliArgs(['revert', 'r-2', '--workspace', '/w'], CWD), {
        command: 'revert',
        runId: 'r-2',
        workspace: path.resolve('/w'),
      });
      assert.match(usageErrorOf(['revert']).message, /run id/);
      assert.match(usageErrorOf(['revert', 'r-2', '--json']).message, /json/);
    });
  });

  describe('help, version, mistakes', () => {
    it('answers help and version', () => {
      assert.deepEqual(parseCliArgs(['--help'], CWD), { command: 'help', topic: undefined });
      assert.deepEqual(parseCliArgs(['-h'], CWD), { command: 'help', topic: undefined });
      assert.deepEqual(parseCliArgs(['help', 'run'], CWD), { command: 'help', topic: 'run' });
      assert.deepEqual(parseCliArgs(['run', '--help'], CWD), { command: 'help', topic: 'run' });
      assert.deepEqual(parseCliArgs(['revert', '-h'], CWD), { command: 'help', topic: 'revert' });
      assert.deepEqual(parseCliArgs(['--version'], CWD), { command: 'version' });
      assert.deepEqual(parseCliArgs(['runs', '--version'], CWD), { command: 'version' });
    });

    it('refuses no command, an unknown command and a leading unknown flag', () => {
      assert.match(usageErrorOf([]).message, /No command/);
      assert.match(usageErrorOf(['deploy']).message, /Unknown command "deploy"/);
      assert.match(usageErrorOf(['--yes', 'run', 'x']).message, /command first/);
    });

    it('documents every flag the parser accepts', () => {
      const text = usageText();
      for (const flag of [
        '--workspace',
        '--yes',
        '--json',
        '--demo',
        '--max-iterations',
        '--model',
        '--plan-approval',
        '--diff-approval',
        '--build-timeout',
        '--test-timeout',
        '--target',
        '--sandbox',
        '--help',
        '--version',
      ]) {
        assert.ok(text.includes(flag), `usage misses ${flag}`);
      }
      assert.ok(usageText('resume').startsWith('ironbees resume'));
    });
  });
});
