// The panel's whole picture of the world, rebuilt from the extension's last messages. Nothing here
// is the source of truth: after a reload the extension re-posts `state`/`review`/`history`/
// `settings` once the panel says `ready`, and this reducer puts the same picture back together.

import type { CodingState } from '../../../src/core/model';
import type { RunSummary } from '../../../src/core/trace';
import type { ExtensionMessage, FileReview } from '../../../src/shared/protocol';
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
}

export interface PanelState {
  /** False until the first `state` message: the panel shows a placeholder instead of a blank "no run". */
  connected: boolean;
  run: CodingState | null;
  busy: boolean;
  statusText: string;
  review: { runId: string; files: FileReview[] } | null;
  history: RunSummary[];
  settings: PanelSettings | null;
  banners: Banner[];
  nextBannerId: number;
  /** The live activity under the current step (state/activity.ts). */
  activity: PanelActivity | null;
}

export const INITIAL_PANEL_STATE: PanelState = {
  connected: false,
  run: null,
  busy: false,
  statusText: '',
  review: null,
  history: [],
  settings: null,
  banners: [],
  nextBannerId: 1,
  activity: null,
};

/** Banners are for things that just happened; a long stack of old ones only hides the run. */
export const MAX_BANNERS = 4;

/** Panel-local actions, named so they cannot be mistaken for a protocol message. */
export type PanelAction = { type: 'dismissBanner'; id: number };

export function reducePanel(state: PanelState, action: ExtensionMessage | PanelAction): PanelState {
  switch (action.type) {
    case 'state': {
      const sameRun = state.review !== null && action.run !== null && state.review.runId === action.run.stateId;
      return {
        ...state,
        connected: true,
        run: action.run,
        busy: action.busy,
        statusText: action.statusText,
        // A review belongs to one run; when the panel switches runs the old verdicts must not linger.
        review: sameRun ? state.review : null,
      };
    }
    case 'review':
      return { ...state, review: { runId: action.runId, files: action.files } };
    case 'history':
      return { ...state, history: action.runs };
    case 'settings':
      return {
        ...state,
        settings: { maxIterations: action.maxIterations, model: action.model, hasApiKey: action.hasApiKey },
      };
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
  }
}
