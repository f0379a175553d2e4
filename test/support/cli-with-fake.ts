// The set-up the CLI's integration suites share: before each test a fake Messages API on 127.0.0.1
// and a fresh copy of a fixture, the built CLI run against both, and after it both gone. Called
// inside a `describe`, it registers those hooks; read `fake`, `workspace` and `env` in a test.

import { startFakeAnthropic } from './fake-anthropic';
import type { FakeAnthropic } from './fake-anthropic';
import { copyFixture, ensureCliBuilt, removeDir, runCli, startCli } from './cli-harness';
import type { CliResult, CliRun } from './cli-harness';

export interface CliWithFake {
  /** This test's fake Messages API. */
  readonly fake: FakeAnthropic;
  /** This test's copy of the fixture. */
  readonly workspace: string;
  /** The key and endpoint that point the real Anthropic SDK at the fake. */
  readonly env: Record<string, string>;
  /** `ironbees <args>` to its end, with `env` and `extraEnv`. */
  run(args: readonly string[], extraEnv?: Record<string, string | undefined>, stdin?: string): Promise<CliResult>;
  /** `ironbees <args>` started, to wait on or stop while it runs. */
  start(args: readonly string[], extraEnv?: Record<string, string | undefined>, stdin?: string): CliRun;
}

export function cliRunWithFake(fixture = 'calculator'): CliWithFake {
  let fake: FakeAnthropic | null = null;
  let workspace: string | null = null;

  before(() => ensureCliBuilt());
  beforeEach(async () => {
    fake = await startFakeAnthropic();
    workspace = copyFixture(fixture);
  });
  afterEach(async () => {
    await fake?.close();
    if (workspace) removeDir(workspace);
    fake = null;
    workspace = null;
  });

  const current = <T>(value: T | null, what: string): T => {
    if (value === null) throw new Error(`cliRunWithFake: no ${what} outside a test`);
    return value;
  };
  const env = (): Record<string, string> => ({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: current(fake, 'fake').url });
  return {
    get fake() {
      return current(fake, 'fake');
    },
    get workspace() {
      return current(workspace, 'workspace');
    },
    get env() {
      return env();
    },
    run: (args, extraEnv = {}, stdin = '') => runCli(args, { ...env(), ...extraEnv }, stdin),
    start: (args, extraEnv = {}, stdin = '') => startCli(args, { ...env(), ...extraEnv }, stdin),
  };
}
