// `ironbees run` follows the orchestrator's live activity on stderr: compact lines by default,
// none with --activity quiet, JSON lines with --activity-json; stdout stays one CodingState per line.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/app';
import type { CliDeps } from '../../../src/cli/app';
import type { ActivityEvent, ActivityListener } from '../../../src/core/activity';
import { EMPTY_USAGE } from '../../../src/core/model';
import { FakeOrchestrator, fsHost, testIo } from './fakes';
import { makeState } from './fixtures';

const EVENTS: ActivityEvent[] = [
  { kind: 'turn_start', runId: 'run-1', agent: 'planner', turn: 1 },
  { kind: 'text', runId: 'run-1', agent: 'planner', turn: 1, text: 'Looking.' },
  { kind: 'usage', runId: 'run-1', usage: { ...EMPTY_USAGE, inputTokens: 10, outputTokens: 2 } },
  {
    kind: 'turn_end',
    runId: 'run-1',
    agent: 'planner',
    turn: 1,
    text: 'Looking.',
    usage: { ...EMPTY_USAGE, inputTokens: 10, outputTokens: 2 },
    durationMs: 5,
  },
  { kind: 'tool', runId: 'run-1', agent: 'planner', turn: 1, tool: 'read_file', line: 'read src/A.cs lines 1–3 of 3', ok: true },
];

/** A streamed reply: pieces that cut words in two, and words after the last piece only in turn_end. */
const STREAMED: ActivityEvent[] = [
  { kind: 'turn_start', runId: 'run-1', agent: 'planner', turn: 1 },
  { kind: 'text', runId: 'run-1', agent: 'planner', turn: 1, text: 'Divide multi' },
  { kind: 'text', runId: 'run-1', agent: 'planner', turn: 1, text: 'plies.\nI will fix the oper' },
  {
    kind: 'turn_end',
    runId: 'run-1',
    agent: 'planner',
    turn: 1,
    text: 'Divide multiplies.\nI will fix the operator.',
    usage: { ...EMPTY_USAGE, inputTokens: 10, outputTokens: 2 },
    durationMs: 5,
  },
  { kind: 'tool', runId: 'run-1', agent: 'planner', turn: 1, tool: 'submit_plan', line: 'submitted the plan', ok: true },
];

/** A fake orchestrator that tells its listeners the events while it plans. */
class ActiveOrchestrator extends FakeOrchestrator {
  private readonly listeners = new Set<ActivityListener>();
  constructor(events: ActivityEvent[] = EVENTS) {
    super(async function* () {
      yield makeState({ currentNode: 'INIT' });
      yield makeState({ currentNode: 'PLAN' });
      for (const event of events) for (const listener of active.listeners) listener(event);
      yield makeState({ currentNode: 'SUCCESS' });
    });
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const active = this;
  }
  onActivity(listener: ActivityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  get listening(): number {
    return this.listeners.size;
  }
}

describe('ironbees run: the live activity on stderr', () => {
  let workspace: string;
  beforeEach(async () => (workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'ironbees-cli-activity-'))));
  afterEach(async () => fs.rm(workspace, { recursive: true, force: true }));

  async function run(...flags: string[]): Promise<{ err: string[]; out: string; orchestrator: ActiveOrchestrator }> {
    return runWith(new ActiveOrchestrator(), ...flags);
  }

  async function runWith(
    orchestrator: ActiveOrchestrator,
    ...flags: string[]
  ): Promise<{ err: string[]; out: string; orchestrator: ActiveOrchestrator }> {
    const deps: Partial<CliDeps> = {
      createRuntime: async (options) => ({ host: fsHost(options.workspaceRoot), orchestrator }),
      createHost: (root) => fsHost(root),
    };
    const io = testIo(null, workspace);
    assert.equal(await runCli(['run', 'x', '-w', workspace, '--yes', ...flags], io, deps), 0, io.err());
    return { err: io.err().split('\n'), out: io.out(), orchestrator };
  }

  it("normal (the default): the turn's words and the tool line; and it stops listening when the run ends", async () => {
    const { err, orchestrator } = await run();
    assert.deepEqual(
      err.filter((line) => line.startsWith('  planner')),
      ['  planner › Looking.', '  planner · read src/A.cs lines 1–3 of 3'],
    );
    assert.equal(orchestrator.listening, 0);
  });

  it('quiet: none; --activity-json: every event as a JSON line on stderr, stdout still only CodingState lines', async () => {
    assert.deepEqual(
      (await run('--activity', 'quiet')).err.filter((line) => line.startsWith('  planner')),
      [],
    );
    const { err, out } = await run('--activity-json', '--json');
    assert.deepEqual(
      err.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as unknown),
      EVENTS,
    );
    for (const line of out.trim().split('\n')) assert.equal(typeof (JSON.parse(line) as { currentNode: unknown }).currentNode, 'string');
  });

  it("verbose: a streamed reply's words, in order, before the turn's line; then the tool line", async () => {
    const { err } = await runWith(new ActiveOrchestrator(STREAMED), '--activity', 'verbose');
    const from = err.indexOf('  planner › Divide multiplies.');
    assert.deepEqual(err.slice(from, from + 4), [
      '  planner › Divide multiplies.',
      '  planner › I will fix the operator.',
      '  planner turn 1: 10 in / 2 out tokens · $0.0000 (0.0 s)',
      '  planner · submitted the plan',
    ]);
    // Each word once: what streamed is not printed again at the turn's end.
    assert.equal(err.filter((line) => line.includes('multiplies')).length, 1, err.join('\n'));
  });
});
