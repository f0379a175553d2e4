// The plan as a person reads it before approving: what, step by step, on which files, how hard.

import type { Colors } from 'picocolors/types';
import type { ActionType, Complexity, ExecutionPlan } from '../../core/model';
import { visibleDeep } from '../../core/platform/text';
import { renderPlanPhases } from './phases';

function actionColor(action: ActionType, colors: Colors): (text: string) => string {
  switch (action) {
    case 'CREATE':
      return colors.green;
    case 'DELETE':
      return colors.red;
    case 'REFACTOR':
      return colors.magenta;
    default:
      return colors.yellow;
  }
}

function complexityColor(complexity: Complexity, colors: Colors): (text: string) => string {
  if (complexity === 'HIGH') return colors.red;
  if (complexity === 'MEDIUM') return colors.yellow;
  return colors.green;
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}

export function renderPlan(written: ExecutionPlan, colors: Colors): string {
  // The model's words as it wrote them: control characters shown as text, never emitted.
  const plan = visibleDeep(written);
  const lines = [
    `${colors.bold('Plan')} (complexity ${complexityColor(plan.complexity, colors)(plan.complexity)}, ${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'})`,
    indent(plan.summary.trim(), '  '),
    '',
  ];
  for (const step of plan.steps) {
    const action = actionColor(step.actionType, colors)(step.actionType.padEnd(8));
    lines.push(`  ${String(step.number).padStart(2)}. ${action} ${colors.bold(step.filePath)}`);
    lines.push(indent(step.description.trim(), '              '));
    if (step.rationale.trim()) lines.push(colors.dim(indent(`why: ${step.rationale.trim()}`, '              ')));
  }
  if (plan.affectedFiles.length) {
    lines.push('', `  Affected files: ${plan.affectedFiles.join(', ')}`);
  }
  lines.push(...renderPlanPhases(plan, colors));
  if (plan.knownFailures?.length) {
    lines.push(`  ${colors.yellow('Failing before the change, left alone')}: ${plan.knownFailures.join(', ')}`);
  }
  return lines.join('\n');
}
