// Which provider and model answer, for the panel: the shown run's own (what it started
// with, kept in its state's metadata, so a later settings change does not relabel an old run),
// else what the settings choose for the next run. Pure, so a plain-Node test checks it.

import type { CodingState } from '../core/model';
import { isProviderName } from '../core/llm/providers/choice';
import type { ProviderName } from '../core/llm/providers/choice';
import type { ExtensionMessage } from '../shared/protocol';
import { providerModelText } from './provider-settings';
import type { IronbeesSettings } from './settings';

export type ModelInfoMessage = Extract<ExtensionMessage, { type: 'modelInfo' }>;

export const DEMO_MODEL_TEXT = 'the scripted demo model';

/** The run's recorded choice, or null for a run persisted before provider was recorded (then: settings). */
function runChoice(run: CodingState): { provider: ProviderName; model: string; fallback: string | null; demo: boolean } | null {
  const meta = run.metadata;
  if (meta.modelProvider === 'demo') return { provider: 'anthropic', model: '', fallback: null, demo: true };
  if (!('provider' in meta) && !('model' in meta) && !('fallback' in meta)) return null;
  const fallback = meta.fallback as { provider?: unknown; model?: unknown } | undefined;
  return {
    provider: isProviderName(meta.provider) ? meta.provider : 'anthropic',
    model: typeof meta.model === 'string' ? meta.model : '',
    fallback:
      fallback && isProviderName(fallback.provider) && typeof fallback.model === 'string'
        ? providerModelText(fallback.provider, fallback.model)
        : null,
    demo: false,
  };
}

/**
 * The status line's words for the model the next run uses: the same as the model section's, so the
 * panel never says "agent default" where it can name the provider and model.
 */
export function nextRunModelText(settings: IronbeesSettings): string {
  return modelInfoMessage(null, settings).text;
}

export function modelInfoMessage(run: CodingState | null, settings: IronbeesSettings): ModelInfoMessage {
  const recorded = run ? runChoice(run) : null;
  if (run && recorded) {
    const text = recorded.demo ? DEMO_MODEL_TEXT : providerModelText(recorded.provider, recorded.model);
    return { type: 'modelInfo', runId: run.stateId, text, fallback: recorded.fallback };
  }
  if (settings.demoModel) return { type: 'modelInfo', runId: null, text: DEMO_MODEL_TEXT, fallback: null };
  return {
    type: 'modelInfo',
    runId: null,
    text: providerModelText(settings.provider, settings.model),
    fallback: settings.fallback ? providerModelText(settings.fallback.provider, settings.fallback.model) : null,
  };
}
