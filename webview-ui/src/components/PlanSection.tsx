// The planner's plan, and at WAIT_PLAN_APPROVAL the person's answer to it: approve as is, reject
// with feedback (the planner plans again), or edit the steps and approve the edited plan.

import { useState, type ReactNode } from 'react';
import type { ActionType, ExecutionPlan } from '../../../src/core/model';
import { send } from '../vscode-api';
import { finalizePlan, planProblems } from '../state/plan-edit';
import { Badge, Button, Section, TextArea } from './common';
import { PlanEditor } from './PlanEditor';

const ACTION_TONE: Record<ActionType, 'ok' | 'info' | 'error' | 'warn'> = {
  CREATE: 'ok',
  MODIFY: 'info',
  DELETE: 'error',
  REFACTOR: 'warn',
};

type Mode = 'view' | 'reject' | 'edit';

export function PlanSection({ runId, plan, waiting }: { runId: string; plan: ExecutionPlan; waiting: boolean }): ReactNode {
  const [mode, setMode] = useState<Mode>('view');
  const [feedback, setFeedback] = useState('');
  const [draft, setDraft] = useState<ExecutionPlan>(plan);
  const [sent, setSent] = useState(false);

  const approve = (editedPlan?: ExecutionPlan): void => {
    setSent(true);
    send(editedPlan ? { type: 'approvePlan', runId, editedPlan } : { type: 'approvePlan', runId });
  };
  const reject = (): void => {
    if (feedback.trim() === '') return;
    setSent(true);
    send({ type: 'rejectPlan', runId, feedback: feedback.trim() });
  };
  const problems = mode === 'edit' ? planProblems(draft) : [];

  return (
    <Section title="Plan" icon="checklist" testId="plan">
      {mode === 'edit' ? (
        <PlanEditor plan={draft} onChange={setDraft} />
      ) : waiting ? (
        <PlanView plan={plan} />
      ) : (
        // Once approved the plan is context, not the news: folded, so validation stays in view.
        <details className="plan-details">
          <summary data-testid="plan-summary">
            {plan.summary}{' '}
            <span className="muted">
              ({plan.steps.length} step{plan.steps.length === 1 ? '' : 's'})
            </span>
          </summary>
          <PlanView plan={plan} showSummary={false} />
        </details>
      )}
      {waiting ? (
        <div className="gate">
          {mode === 'view' ? (
            <div className="row">
              <Button testId="approve-plan" icon="check" onClick={() => approve()} disabled={sent}>
                Approve
              </Button>
              <Button testId="reject-plan" icon="close" secondary onClick={() => setMode('reject')} disabled={sent}>
                Reject
              </Button>
              <Button
                testId="edit-plan"
                icon="edit"
                secondary
                onClick={() => {
                  setDraft(plan);
                  setMode('edit');
                }}
                disabled={sent}
              >
                Edit
              </Button>
            </div>
          ) : null}
          {mode === 'reject' ? (
            <>
              <TextArea
                label="What should the planner change?"
                testId="plan-feedback"
                value={feedback}
                onChange={setFeedback}
                onSubmit={reject}
                autoFocus
              />
              <div className="row">
                <Button testId="send-plan-feedback" icon="send" onClick={reject} disabled={sent || feedback.trim() === ''}>
                  Reject and replan
                </Button>
                <Button secondary onClick={() => setMode('view')} disabled={sent}>
                  Back
                </Button>
              </div>
            </>
          ) : null}
          {mode === 'edit' ? (
            <>
              {problems.map((p) => (
                <div key={p} className="problem" role="alert">
                  {p}
                </div>
              ))}
              <div className="row">
                <Button
                  testId="approve-edited-plan"
                  icon="check"
                  onClick={() => approve(finalizePlan(draft))}
                  disabled={sent || problems.length > 0}
                >
                  Approve edited plan
                </Button>
                <Button secondary onClick={() => setMode('view')} disabled={sent}>
                  Discard edits
                </Button>
              </div>
            </>
          ) : null}
        </div>
      ) : null}
    </Section>
  );
}

function PlanView({ plan, showSummary = true }: { plan: ExecutionPlan; showSummary?: boolean }): ReactNode {
  return (
    <>
      {showSummary ? (
        <p className="plan-summary" data-testid="plan-summary">
          {plan.summary}
        </p>
      ) : null}
      <ol className="plan-steps">
        {plan.steps.map((step) => (
          <li key={step.number} className="plan-step" data-testid="plan-step">
            <div className="plan-step-head">
              <Badge tone={ACTION_TONE[step.actionType]}>{step.actionType}</Badge>
              {step.filePath ? <code className="path">{step.filePath}</code> : null}
            </div>
            <div>{step.description}</div>
            {step.rationale ? <div className="muted">{step.rationale}</div> : null}
          </li>
        ))}
      </ol>
      <div className="plan-meta">
        <span>
          Complexity: <Badge tone={plan.complexity === 'HIGH' ? 'warn' : 'neutral'}>{plan.complexity}</Badge>
        </span>
        {plan.affectedFiles.length > 0 ? (
          <span>
            Affected files:{' '}
            {plan.affectedFiles.map((f) => (
              <code key={f} className="path">
                {f}
              </code>
            ))}
          </span>
        ) : null}
        {plan.knownFailures?.length ? (
          <span
            data-testid="plan-known-failures"
            title="Tests that already failed before any change; the plan leaves them alone and they do not block success"
          >
            Failing before, left alone:{' '}
            {plan.knownFailures.map((name) => (
              <code key={name}>{name}</code>
            ))}
          </span>
        ) : null}
      </div>
    </>
  );
}
