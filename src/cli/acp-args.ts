// `ironbees acp`'s options (the option table is args.ts's, with the others).

import * as path from 'node:path';
import { PROVIDER_NAMES } from '../core/llm/providers/choice';
import type { ProviderName } from '../core/llm/providers/choice';
import { SANDBOX_MODES } from '../core/platform/sandbox';
import type { SandboxMode } from '../core/platform/sandbox';
import { UsageError } from './exit-codes';
import { choiceOption, stringValue } from './option-values';
import type { Values } from './option-values';

/** `ironbees acp`: an Agent Client Protocol agent on stdio, for editors (Rider, Zed, Neovim …). */
export interface AcpArgs {
  command: 'acp';
  /** --workspace when given: every session works there. Absent: each session works in its own cwd. */
  workspace?: string;
  trustWorkspace: boolean;
  demo: boolean;
  model?: string;
  provider?: ProviderName;
  sandbox: SandboxMode;
}

export function parseAcp(values: Values, positionals: string[], cwd: string): AcpArgs {
  if (positionals.length) throw new UsageError(`acp takes no arguments (got "${positionals[0]}").`, 'acp');
  const workspace = stringValue(values, 'workspace');
  const model = stringValue(values, 'model');
  if (model !== undefined && !model.trim()) throw new UsageError('--model needs a model id, e.g. --model claude-sonnet-4-5.', 'acp');
  return {
    command: 'acp',
    ...(workspace !== undefined ? { workspace: path.resolve(cwd, workspace) } : {}),
    trustWorkspace: values['trust-workspace'] === true,
    demo: values.demo === true,
    ...(model !== undefined ? { model: model.trim() } : {}),
    ...(values.provider !== undefined ? { provider: choiceOption(values, 'provider', PROVIDER_NAMES, 'anthropic', 'acp') } : {}),
    sandbox: choiceOption(values, 'sandbox', SANDBOX_MODES, 'auto', 'acp'),
  };
}
