import assert from 'node:assert/strict';
import { createDefaultToolRegistry } from '../../../src/core/agents/builtin';

describe('terminal tools are not offered resultPage', () => {
  it('submit_plan and submit_changes have no resultPage argument; read_file keeps it', () => {
    const registry = createDefaultToolRegistry();
    const tools = registry.toModelTools(registry.forAgent(['read_file', 'submit_plan', 'submit_changes']));
    const properties = tools.map((tool) =>
      tool.kind === 'custom' ? Object.keys(tool.inputSchema.properties as Record<string, unknown>) : [],
    );
    assert.deepEqual(properties, [['path', 'offset', 'limit', 'resultPage'], ['spec', 'plan'], ['summary']]);
  });
});
