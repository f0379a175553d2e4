// What the model picker offers ("Ironbees: Choose Model…", the panel's model line): the scripted demo
// model and each provider of the registry, the current one marked, and what picking one writes to
// the person's settings. Pure (no vscode), so a plain-Node test checks it against the registry.

import { MODEL_PROVIDERS } from '../core/llm/providers/registry';
import type { ProviderName } from '../core/llm/providers/choice';
import { providerLabel } from './provider-settings';

export interface ModelChoice {
  label: string;
  description: string;
  /** null: the scripted demo model. */
  provider: ProviderName | null;
  /** What the model box offers first for this provider. */
  suggestedModel: string;
  current: boolean;
}

export interface CurrentModel {
  demoModel: boolean;
  provider: ProviderName;
  model: string;
}

export function modelChoices(current: CurrentModel): ModelChoice[] {
  const demo: ModelChoice = {
    label: 'Scripted demo model',
    description: 'no API and no key; fixes only the bundled Calculator sample',
    provider: null,
    suggestedModel: '',
    current: current.demoModel,
  };
  return [
    ...MODEL_PROVIDERS.map((module): ModelChoice => {
      const provider = module.name as ProviderName;
      const isCurrent = !current.demoModel && current.provider === provider;
      return {
        label: providerLabel(provider),
        description: module.label,
        provider,
        suggestedModel: isCurrent && current.model ? current.model : (module.defaultModel ?? ''),
        current: isCurrent,
      };
    }),
    demo,
  ];
}

/** The settings a choice writes: the provider and model, and the demo model off (or only it on). */
export function settingsFor(choice: ModelChoice, model: string): Array<{ key: string; value: unknown }> {
  if (choice.provider === null) return [{ key: 'demoModel', value: true }];
  return [
    { key: 'provider', value: choice.provider },
    { key: 'model', value: model.trim() },
    { key: 'demoModel', value: false },
  ];
}
