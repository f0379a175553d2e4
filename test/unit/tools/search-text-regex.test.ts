// search_text with isRegex: the model's pattern runs in a worker that is terminated at the limit, so
// a catastrophically backtracking pattern answers with a clear error and the process stays responsive.

import * as assert from 'node:assert/strict';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { ToolContext } from '../../../src/core/tools/types';
import { runningRegexWorkers } from '../../../src/core/tools/workspace/regex-worker';
import { REGEX_TIME_LIMIT_MS, createSearchTextTool, searchTextTool } from '../../../src/core/tools/workspace/search-text';
import { memoryHost, toolContext } from './memory-host';

const PATHOLOGICAL = '(a+)+$';
const STOPPED =
  'The regular expression "(a+)+$" was stopped after 1 s without finishing. ' +
  'It probably backtracks without end (nested quantifiers such as (a+)+ or (.*)*); simplify it, or search for literal text with isRegex false.';

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}

describe('search_text regular expressions cannot freeze the run', function () {
  this.timeout(30_000);
  let ctx: ToolContext;
  beforeEach(() => {
    // 64 `a`s and one character that fails `$`: 2^64 ways to split the run of a's before giving up.
    ctx = toolContext(memoryHost({ 'src/Slow.txt': `${'a'.repeat(64)}!\n`, 'src/Fine.cs': 'class Fine { int Add(int a) => a; }\n' }));
  });

  it("stops (a+)+$ on a line of 64 a's at the limit with a clear error, while timers keep firing", async () => {
    const tool = createSearchTextTool({ regexTimeLimitMs: 1000 });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    try {
      const outcome = await new ToolRegistry().register(tool).execute(tool, { query: PATHOLOGICAL, isRegex: true }, ctx);
      assert.deepEqual({ ok: outcome.ok, error: outcome.ok ? null : outcome.error }, { ok: false, error: STOPPED });
      // The main thread was free while the pattern ran: a synchronous match would allow no tick at all.
      assert.ok(ticks >= 5, `the timer fired ${ticks} times during the search`);
    } finally {
      clearInterval(ticker);
    }
    assert.ok(await until(() => runningRegexWorkers() === 0, 5000), 'the worker was terminated');
  });

  it('still finds matches with an ordinary pattern, case-insensitively by default', async () => {
    const outcome = await new ToolRegistry()
      .register(searchTextTool)
      .execute(searchTextTool, { query: 'int\\s+ADD\\(', isRegex: true }, ctx);
    assert.deepEqual(
      outcome.ok && outcome.content,
      '1 match(es) for "int\\\\s+ADD\\\\(" in .:\nsrc/Fine.cs:1: class Fine { int Add(int a) => a; }',
    );
  });

  it("the tool's time limit stops the worker too, not only the wait", async () => {
    const tool = { ...createSearchTextTool({ regexTimeLimitMs: 60_000 }), timeoutMs: 500 };
    const outcome = await new ToolRegistry().register(tool).execute(tool, { query: PATHOLOGICAL, isRegex: true }, ctx);
    assert.deepEqual({ ok: outcome.ok, kind: outcome.ok ? null : outcome.kind }, { ok: false, kind: 'Timeout' });
    assert.ok(await until(() => runningRegexWorkers() === 0, 5000), 'the aborted search left its worker running');
  });

  it("keeps the regex limit inside the tool's own limit, so the clearer message wins", () => {
    assert.equal(REGEX_TIME_LIMIT_MS, 10_000);
    assert.equal(searchTextTool.timeoutMs, 30_000);
  });
});
