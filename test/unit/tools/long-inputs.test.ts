import assert from 'node:assert/strict';
import { MAX_ERROR_CHARS, runToolCalls } from '../../../src/core/agents/tool-calls';
import { PathOutsideWorkspaceError } from '../../../src/core/errors';
import { createDefaultToolRegistry } from '../../../src/core/agents/builtin';
import { MAX_PATH_CHARS, resolveWorkspacePath } from '../../../src/core/workspace/paths';
import { StagedOverlay } from '../../../src/core/workspace/overlay';
import { createMemoryHost } from '../../support/memory-host';

describe('huge model inputs (found by the tool-loop fuzz)', () => {
  it('refuses a path longer than any file system takes before touching the disk', () => {
    assert.equal(MAX_PATH_CHARS, 4_096);
    resolveWorkspacePath('/ws', 'a'.repeat(MAX_PATH_CHARS));
    assert.throws(
      () => resolveWorkspacePath('/ws', 'a'.repeat(MAX_PATH_CHARS + 1)),
      (error: unknown) => {
        assert.ok(error instanceof PathOutsideWorkspaceError);
        assert.match(error.message, /the path is 4097 characters long \(at most 4096\)/);
        return true;
      },
    );
  });

  it('cuts a tool error that echoes a huge input to its head, saying how much was cut', async () => {
    const host = createMemoryHost();
    const registry = createDefaultToolRegistry();
    const name = 'x'.repeat(100_000);
    const outcome = await runToolCalls([{ type: 'tool_use', id: 't1', name, input: {} }], {
      agentName: 'coder',
      tools: new Map(registry.forAgent(['read_file']).map((def) => [def.name, def])),
      registry,
      context: { host, overlay: new StagedOverlay(host) },
      terminal: { name: 'submit_changes', accept: () => ({ ok: true, value: null }) },
      now: () => 0,
    });
    const content = outcome.results[0].content;
    assert.equal(outcome.results[0].is_error, true);
    assert.equal(content.length, MAX_ERROR_CHARS + '… (98054 more characters cut)'.length);
    assert.equal(content.slice(0, 40), '[NotFound] Unknown tool "xxxxxxxxxxxxxxx');
    assert.equal(content.slice(-32), 'xxx… (98054 more characters cut)');
  });
});
