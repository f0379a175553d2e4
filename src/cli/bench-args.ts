// `ironbees bench <task-file>`'s options: where the report goes, the model, a cost cap per task.

import * as path from 'node:path';
import { DEFAULT_MAX_ITERATIONS } from '../core/model';
import { PROVIDER_NAMES } from '../core/llm/providers/choice';
import { SANDBOX_MODES } from '../core/platform/sandbox';
import type { BenchArgs } from './arg-types';
import { UsageError } from './exit-codes';
import { choiceOption, integerOption, onePositional, stringValue } from './option-values';
import type { Values } from './option-values';
import { MAX_ITERATIONS_LIMIT } from './run-options';

export function parseBench(values: Values, positionals: string[], cwd: string): BenchArgs {
  const taskFile = onePositional(positionals, 'bench', 'a task file (JSON or YAML)');
  const out = stringValue(values, 'out');
  if (out !== undefined && !out.trim()) throw new UsageError('--out needs a folder for the report.', 'bench');
  const model = stringValue(values, 'model');
  if (model !== undefined && !model.trim()) throw new UsageError('--model needs a model id, e.g. --model claude-sonnet-4-5.', 'bench');
  let maxCostUsd: number | undefined;
  const rawCost = stringValue(values, 'max-cost');
  if (rawCost !== undefined) {
    maxCostUsd = Number(rawCost);
    if (!rawCost.trim() || !Number.isFinite(maxCostUsd) || maxCostUsd <= 0) {
      throw new UsageError(`--max-cost must be a positive number (got "${rawCost}").`, 'bench');
    }
  }
  return {
    command: 'bench',
    taskFile: path.resolve(cwd, taskFile),
    out: path.resolve(cwd, out?.trim() ?? 'bench-report'),
    demo: values.demo === true,
    ...(model !== undefined ? { model: model.trim() } : {}),
    ...(values.provider !== undefined ? { provider: choiceOption(values, 'provider', PROVIDER_NAMES, 'anthropic', 'bench') } : {}),
    ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
    maxIterations: integerOption(values, 'max-iterations', DEFAULT_MAX_ITERATIONS, MAX_ITERATIONS_LIMIT, 'bench'),
    sandbox: choiceOption(values, 'sandbox', SANDBOX_MODES, 'auto', 'bench'),
    keep: values.keep === true,
  };
}
