// The timeline, with its agent steps (Planning, Coding) opening their turns: a click on one asks the
// extension for that step's turns, shown below until closed, and asked again as the run moves on so
// an open list stays current. Kept apart from Timeline.tsx, which only draws the steps.

import { useEffect } from 'react';
import type { Dispatch, MouseEvent, ReactNode } from 'react';
import type { CodingState } from '../../../src/core/model';
import type { PanelAction, PanelState } from '../state/panel-state';
import type { RestorePoints } from '../state/restore-points';
import { send } from '../vscode-api';
import { StepTurns } from './StepTurns';
import { Timeline } from './Timeline';

function turnStepOf(target: EventTarget): 'PLAN' | 'CODE' | null {
  const node = target instanceof Element ? target.closest('[data-node]')?.getAttribute('data-node') : null;
  return node === 'PLAN' || node === 'CODE' ? node : null;
}

export function TimelineTurns({
  run,
  busy,
  stepTurns,
  dispatch,
  restore,
}: {
  run: CodingState;
  busy: boolean;
  stepTurns: PanelState['stepTurns'];
  dispatch: Dispatch<PanelAction>;
  restore?: RestorePoints['steps'];
}): ReactNode {
  const open = stepTurns && stepTurns.runId === run.stateId ? stepTurns : null;
  const openNode = open?.node ?? null;
  useEffect(() => {
    if (openNode) send({ type: 'showStepTurns', runId: run.stateId, node: openNode });
  }, [openNode, run.stateId, run.currentNode, run.iterationCount, run.usage.inputTokens]);
  const onClick = (event: MouseEvent): void => {
    const node = turnStepOf(event.target);
    if (node) send({ type: 'showStepTurns', runId: run.stateId, node });
  };
  return (
    <>
      <div className="timeline-turns" data-testid="timeline-turns" title="Click Planning or Coding to see its turns" onClick={onClick}>
        <Timeline run={run} busy={busy} restore={restore} />
      </div>
      {open ? <StepTurns node={open.node} groups={open.groups} onClose={() => dispatch({ type: 'closeStepTurns' })} /> : null}
    </>
  );
}
