// The side panel. It keeps no state of its own that matters: everything is drawn from the last
// messages of the extension (see state/panel-state.ts), so hiding the panel or reloading the window
// loses nothing. It says `ready` once it listens, and the extension posts nothing before that.

import { useEffect, useReducer, type Dispatch, type ReactNode } from 'react';
import type { CodingState } from '../../../src/core/model';
import { send } from '../vscode-api';
import { INITIAL_PANEL_STATE, reducePanel, type PanelAction, type PanelState } from '../state/panel-state';
import { parseExtensionMessage } from '../state/parse-message';
import { proposedFiles } from '../state/files';
import { validationView, escalationReasons } from '../state/validation';
import { formatUsage, nodeLabel } from '../state/format';
import { isTerminal } from '../state/timeline';
import { Button, Icon, IconButton } from './common';
import { RequestBox } from './RequestBox';
import { TimelineTurns } from './TimelineTurns';
import { PlanSection } from './PlanSection';
import { FilesSection } from './FilesSection';
import { ValidationSection } from './ValidationSection';
import { EscalationSection } from './EscalationSection';
import { HistorySection } from './HistorySection';
import { RunInfoSection } from './RunInfoSection';
import { SteeringSection } from './SteeringSection';
import { RestoreButton } from './RestoreButton';
import { restorePoints, rewoundNote } from '../state/restore-points';
import { HandoffBar } from './HandoffBar';
import { steeringTrail } from '../state/steering';
import { ActivitySection } from './ActivitySection';
import { PhaseLanes } from './PhaseLanes';
import { latestActivity, phaseLanes } from '../state/phases';
import { OutcomeSection } from './OutcomeSection';
import { ReviewSection } from './ReviewSection';
import { outcomeView } from '../state/outcome';

export function App(): ReactNode {
  const [state, dispatch] = useReducer(reducePanel, INITIAL_PANEL_STATE);

  useEffect(() => {
    const onMessage = (event: MessageEvent): void => {
      const message = parseExtensionMessage(event.data);
      if (message) dispatch(message);
    };
    window.addEventListener('message', onMessage);
    send({ type: 'ready' });
    return () => window.removeEventListener('message', onMessage);
  }, []);

  return (
    <main className="panel">
      <StatusLine state={state} />
      {state.banners.map((b) => (
        <div
          key={b.id}
          className={`banner banner-${b.kind}`}
          role={b.kind === 'error' ? 'alert' : 'status'}
          data-testid={`banner-${b.kind}`}
        >
          <Icon name={b.kind === 'error' ? 'error' : 'info'} />
          <span className="banner-text">{b.message}</span>
          <IconButton icon="close" label="Dismiss" onClick={() => dispatch({ type: 'dismissBanner', id: b.id })} />
        </div>
      ))}
      {state.interrupted && state.run ? <InterruptedBanner run={state.run} /> : null}
      <RequestBox busy={state.busy} maxIterations={state.settings?.maxIterations} />
      <RunInfoSection info={state.modelInfo} run={state.run} />
      {state.run ? (
        <RunView run={state.run} state={state} dispatch={dispatch} />
      ) : state.connected ? (
        <p className="muted">No run yet. Describe a change above and press Run.</p>
      ) : null}
      <HistorySection runs={state.history} live={state.run} busy={state.busy} />
    </main>
  );
}

/** Stays while the run waits to be resumed (not a toast that hides): the window closed or reloaded mid-run. */
function InterruptedBanner({ run }: { run: CodingState }): ReactNode {
  return (
    <div className="banner banner-warn" role="status" data-testid="banner-interrupted">
      <Icon name="debug-pause" />
      <span className="banner-text">Interrupted — the run stopped at {nodeLabel(run.currentNode)} when the window closed.</span>
      <Button testId="resume" icon="debug-continue" onClick={() => send({ type: 'resumeRun', runId: run.stateId })}>
        Resume
      </Button>
    </div>
  );
}

function StatusLine({ state }: { state: PanelState }): ReactNode {
  // A reverted run's outcome no longer stands: neutral, like its status text ("Reverted").
  const node = typeof state.run?.metadata.revertedAt === 'string' ? 'REVERTED' : state.run?.currentNode;
  const tone = node === 'SUCCESS' ? 'ok' : node === 'FAILED' ? 'error' : node === 'WAIT_HUMAN' ? 'warn' : 'neutral';
  return (
    <div className={`status-line tone-${tone}`} role="status" aria-live="polite" data-testid="status-line" data-tone={tone}>
      <Icon
        name={
          state.busy ? 'loading' : node === 'SUCCESS' ? 'pass' : node === 'FAILED' ? 'error' : node === 'REVERTED' ? 'discard' : 'hubot'
        }
        spin={state.busy}
      />
      <span data-testid="status">{state.connected ? state.statusText || 'Ironbees' : 'Connecting…'}</span>
      {state.settings ? (
        <span className="muted settings-line" title={state.settings.keyStatus}>
          {state.settings.model}
          {state.settings.hasApiKey ? '' : ' · no API key'}
        </span>
      ) : null}
    </div>
  );
}

function RunView({ run, state, dispatch }: { run: CodingState; state: PanelState; dispatch: Dispatch<PanelAction> }): ReactNode {
  const node = run.currentNode;
  const files = proposedFiles(run, state.review);
  const validation = validationView(run);
  const trail = steeringTrail(run);
  const outcome = outcomeView(run);
  const restore = restorePoints(run.stateId, state.checkpoints, state.busy);
  // Keyed by run and node, so a gate's local "sent"/draft state starts fresh at each new gate.
  const gateKey = `${run.stateId}:${node}:${run.iterationCount}`;
  return (
    <div className="run" data-testid="run" data-node={node}>
      <div className="run-header">
        <div className="run-request" title={run.userRequest}>
          {run.userRequest}
        </div>
        {!isTerminal(node) ? (
          <Button testId="cancel" icon="debug-stop" secondary onClick={() => send({ type: 'cancelRun', runId: run.stateId })}>
            Cancel
          </Button>
        ) : null}
      </div>
      {outcome ? <OutcomeSection view={outcome} /> : null}
      <TimelineTurns run={run} busy={state.busy} stepTurns={state.stepTurns} dispatch={dispatch} restore={restore.steps} />
      {restore.lastGreen ? (
        <div className="restore-line" data-testid="back-to-last-green">
          <RestoreButton runId={run.stateId} checkpoint={restore.lastGreen} label="Back to last green" />
        </div>
      ) : null}
      <PhaseLanes
        lanes={phaseLanes(run)}
        activity={latestActivity(state.activity?.runId === run.stateId ? state.activity.entries : undefined)}
      />
      {state.activity?.runId === run.stateId ? <ActivitySection entries={state.activity.entries} /> : null}
      {run.plan ? (
        <PlanSection key={`plan:${gateKey}`} runId={run.stateId} plan={run.plan} waiting={node === 'WAIT_PLAN_APPROVAL'} />
      ) : null}
      {trail ? <SteeringSection trail={trail} runId={run.stateId} restore={restore.attempts} /> : null}
      {files.length > 0 ? (
        <FilesSection key={`files:${gateKey}`} runId={run.stateId} rows={files} waiting={node === 'WAIT_DIFF_APPROVAL'} />
      ) : null}
      {validation ? <ValidationSection view={validation} /> : null}
      {run.review ? <ReviewSection review={run.review} /> : null}
      {node === 'WAIT_HUMAN' ? (
        <EscalationSection key={`esc:${gateKey}`} runId={run.stateId} reasons={escalationReasons(run)} note={rewoundNote(run)} />
      ) : null}
      <HandoffBar run={run} interrupted={state.interrupted} />
      <div className="usage muted" data-testid="usage" title="Tokens and cost of this run">
        <Icon name="pulse" /> {formatUsage(run.usage)}
      </div>
    </div>
  );
}
