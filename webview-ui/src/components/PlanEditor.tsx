// Edit mode of the plan: every step's action, file and description can change, and steps can go.

import type { ReactNode } from 'react';
import type { ActionType, ExecutionPlan } from '../../../src/core/model';
import { ACTION_TYPES, removeStep, requireFixOf, updateStep } from '../state/plan-edit';
import { IconButton } from './common';

export function PlanEditor({ plan, onChange }: { plan: ExecutionPlan; onChange: (plan: ExecutionPlan) => void }): ReactNode {
  return (
    <>
      <p className="plan-summary">{plan.summary}</p>
      <ol className="plan-steps editing" data-testid="plan-editor">
        {plan.steps.map((step, index) => (
          <li key={index} className="plan-step">
            <div className="plan-step-head">
              <select
                aria-label={`Action of step ${step.number}`}
                value={step.actionType}
                onChange={(e) => onChange(updateStep(plan, index, { actionType: e.currentTarget.value as ActionType }))}
              >
                {ACTION_TYPES.map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </select>
              <input
                type="text"
                aria-label={`File of step ${step.number}`}
                value={step.filePath}
                onChange={(e) => onChange(updateStep(plan, index, { filePath: e.currentTarget.value }))}
              />
              <IconButton
                icon="trash"
                label={`Remove step ${step.number}`}
                testId="remove-step"
                onClick={() => onChange(removeStep(plan, index))}
              />
            </div>
            <textarea
              aria-label={`Description of step ${step.number}`}
              data-testid="step-description"
              rows={2}
              value={step.description}
              onChange={(e) => onChange(updateStep(plan, index, { description: e.currentTarget.value }))}
            />
          </li>
        ))}
      </ol>
      {plan.knownFailures?.length ? (
        <div className="plan-meta" data-testid="known-failures-editor">
          <span>Failing before, left alone (remove one to make the run fix it):</span>
          {plan.knownFailures.map((name) => (
            <span key={name}>
              <code>{name}</code>
              <IconButton
                icon="close"
                label={`Require ${name} to pass`}
                testId="require-fix"
                onClick={() => onChange(requireFixOf(plan, name))}
              />
            </span>
          ))}
        </div>
      ) : null}
    </>
  );
}
