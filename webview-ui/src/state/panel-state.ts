// The panel's whole picture of the world, rebuilt from the extension's last messages. Nothing here
// is the source of truth: after a reload the extension re-posts `state`/`review`/`history`/
// `settings` once the panel says `ready`, and this reducer puts the same picture back together.

import type { CodingState } from '../../../src/core/model';
import type { RunSummary } from '../../../src/core/trace';
import type { ExtensionMessage, FileReview, PanelCheckpoint, StepTurnGroup, TurnStep } from '../../../src/shared/protocol';
import type { ModelInfo } from './run-info';
import { applyActivity } from './activity';
import type { PanelActivity } from './activity';

export interface Banner {
  id: number;
  kind: 'error' | 'notice';
  message: string;
}

export interface PanelSettings {
  maxIterations: number;
  model: string;
  hasApiKey: boolean;
  /** The key's state in words, naming the configured provider (the status line's tooltip). */
  keyStatus: string;
}

export interface PanelState {
  /** False until the first `state` message: the panel shows a placeholder instead of a blank "no run". */
  connected: boolean;
  run: CodingState | null;
  busy: boolean;
  statusText: string;
  /** The run shown was left unfinished with nothing following it (a window reload): Resume is offered until it is resumed. */
  interrupted: boolean;
  review: { runId: string; files: FileReview[] } | null;
  history: RunSummary[];
  settings: PanelSettings | null;
  /** Which provider and model answer (the shown run's own, else the settings'); null until told. */
  modelInfo: ModelInfo | null;
  banners: Banner[];
  nextBannerId: number;
  /** The turns of the timeline step the person opened; null when none is open. */
  stepTurns: { runId: string; node: TurnStep; groups: StepTurnGroup[] } | null;
  /** The live activity under the current step (state/activity.ts). */
  activity: PanelActivity | null;
  /** The checkpoints of a run (the one shown, once told), oldest first. */
  checkpoints: { runId: string; list: PanelCheckpoint[] } | null;
}

export const INITIAL_PANEL_STATE: PanelState = {
  connected: false,
  run: null,
  busy: false,
  statusText: '',
  interrupted: false,
  review: null,
  history: [],
  settings: null,
  modelInfo: null,
  banners: [],
  nextBannerId: 1,
  stepTurns: null,
  activity: null,
  checkpoints: null,
};

/** Banners are for things that just happened; a long stack of old ones only hides the run. */
export const MAX_BANNERS = 4;

/** Panel-local actions, named so they cannot be mistaken for a protocol message. */
export type PanelAction = { type: 'dismissBanner'; id: number } | { type: 'closeStepTurns' };

export function reducePanel(state: PanelState, action: ExtensionMessage | PanelAction): PanelState {
  switch (action.type) {
    case 'state': {
      const sameRun = state.review !== null && action.run !== null && state.review.runId === action.run.stateId;
      // Banners tell what just happened to the run shown: another run shown, they no longer apply.
      const otherRun = state.run !== null && action.run !== null && state.run.stateId !== action.run.stateId;
      return {
        ...state,
        banners: otherRun ? [] : state.banners,
        connected: true,
        run: action.run,
        busy: action.busy,
        statusText: action.statusText,
        interrupted: action.interrupted === true && action.run !== null,
        // A review belongs to one run; when the panel switches runs the old verdicts must not linger.
        review: sameRun ? state.review : null,
        // So do the turns shown.
        stepTurns: state.stepTurns && action.run?.stateId === state.stepTurns.runId ? state.stepTurns : null,
        checkpoints: state.checkpoints && action.run?.stateId === state.checkpoints.runId ? state.checkpoints : null,
      };
    }
    case 'review':
      return { ...state, review: { runId: action.runId, files: action.files } };
    case 'history':
      return { ...state, history: action.runs };
    case 'settings':
      return {
        ...state,
        settings: {
          maxIterations: action.maxIterations,
          model: action.model,
          hasApiKey: action.hasApiKey,
          // An extension that does not say which provider: no provider is named rather than a wrong one.
          keyStatus: action.keyStatus ?? (action.hasApiKey ? 'API key set' : 'No API key: run "Ironbees: Set API Key"'),
        },
      };
    case 'modelInfo':
      return { ...state, modelInfo: { runId: action.runId, text: action.text, fallback: action.fallback } };
    case 'error':
    case 'notice': {
      const banner: Banner = { id: state.nextBannerId, kind: action.type, message: action.message };
      return {
        ...state,
        banners: [...state.banners, banner].slice(-MAX_BANNERS),
        nextBannerId: state.nextBannerId + 1,
      };
    }
    case 'activity':
      return { ...state, activity: applyActivity(state.activity, action) };
    case 'dismissBanner':
      return { ...state, banners: state.banners.filter((b) => b.id !== action.id) };
    case 'stepTurns':
      return { ...state, stepTurns: { runId: action.runId, node: action.node, groups: action.groups } };
    case 'checkpoints':
      return { ...state, checkpoints: { runId: action.runId, list: action.checkpoints } };
    case 'closeStepTurns':
      return { ...state, stepTurns: null };
  }
}
