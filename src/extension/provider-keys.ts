// API keys per provider in SecretStorage. The Anthropic key keeps its place and behaviour
// (ApiKeyStore); the OpenAI-compatible key sits beside it, with OPENAI_API_KEY as the fallback, as
// the CLI honours it. "Set API Key" asks which provider the key is for.

import * as vscode from 'vscode';
import type { ProviderName } from '../core/llm/providers/choice';
import { registerSecret } from '../core/redact';
import { ApiKeyStore } from './secrets';
import { PROVIDER_CHOICES } from './provider-settings';

const OPENAI_SECRET_KEY = 'ironbees.openaiApiKey';

export class ProviderApiKeyStore extends ApiKeyStore {
  constructor(
    private readonly store: vscode.SecretStorage,
    private readonly currentProvider: () => ProviderName,
    private readonly environment: NodeJS.ProcessEnv = process.env,
  ) {
    super(store, environment);
  }

  /** Both keys: changing the OpenAI-compatible one must retire the runtime built with the old one, as the Anthropic one does. */
  protected override secretKeys(): readonly string[] {
    return [...super.secretKeys(), OPENAI_SECRET_KEY];
  }

  /** The key of a provider (the chosen one when not named). */
  async keyFor(provider: ProviderName = this.currentProvider()): Promise<string | undefined> {
    if (provider === 'anthropic') return super.get();
    const key = (await this.store.get(OPENAI_SECRET_KEY)) || this.environment.OPENAI_API_KEY || undefined;
    // Masked in every log, trace and panel message, as the Anthropic key is.
    registerSecret(key);
    return key;
  }

  /** Whether the chosen provider has a key, as the panel's "ready" check asks. */
  override async has(): Promise<boolean> {
    return (await this.keyFor()) !== undefined;
  }

  override async prompt(): Promise<boolean> {
    const picked = await vscode.window.showQuickPick(
      PROVIDER_CHOICES.map((choice) => ({ label: choice.label, provider: choice.provider })),
      { title: 'Ironbees: which provider is the API key for?', ignoreFocusOut: true },
    );
    if (!picked) return false;
    if (picked.provider === 'anthropic') return super.prompt();
    const key = await vscode.window.showInputBox({
      title: 'Ironbees: OpenAI-compatible API key',
      prompt: 'Stored in VS Code secret storage, never in settings. Leave empty to remove the stored key.',
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined) return false;
    if (!key.trim()) {
      await this.store.delete(OPENAI_SECRET_KEY);
      void vscode.window.showInformationMessage('Ironbees: the stored OpenAI-compatible API key was removed.');
      return false;
    }
    await this.store.store(OPENAI_SECRET_KEY, key.trim());
    void vscode.window.showInformationMessage('Ironbees: the OpenAI-compatible API key is stored in secret storage.');
    return true;
  }
}
