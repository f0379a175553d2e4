// "Ironbees: Choose Model…" and the panel's "Change" beside the model line: a provider (or the demo
// model), then the model's name, written to the person's user settings (provider and model are
// machine-scoped: a workspace cannot choose them). Escape at either step changes nothing.

import * as vscode from 'vscode';
import { SETTINGS_SECTION } from './settings-keys';
import type { CurrentModel, ModelChoice } from './model-choices';
import { modelChoices, settingsFor } from './model-choices';

export async function chooseModel(current: CurrentModel): Promise<boolean> {
  const items = modelChoices(current).map((choice) => ({
    label: `${choice.current ? '$(check) ' : ''}${choice.label}`,
    description: choice.description,
    choice,
  }));
  const picked = await vscode.window.showQuickPick(items, { title: 'Ironbees: the model for the next run', ignoreFocusOut: true });
  if (!picked) return false;
  const model = await askModel(picked.choice);
  if (model === undefined) return false;
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  for (const { key, value } of settingsFor(picked.choice, model)) {
    await config.update(key, value, vscode.ConfigurationTarget.Global);
  }
  return true;
}

async function askModel(choice: ModelChoice): Promise<string | undefined> {
  if (choice.provider === null) return '';
  return vscode.window.showInputBox({
    title: `Ironbees: ${choice.label} model`,
    prompt: 'The model every agent uses (empty: each agent’s own model from its agent.yaml)',
    value: choice.suggestedModel,
    ignoreFocusOut: true,
  });
}
