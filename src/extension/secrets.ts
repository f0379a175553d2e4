// The Anthropic API key lives in SecretStorage (the OS keychain, or code-server's encrypted store),
// never in settings, logs or traces. ANTHROPIC_API_KEY in the extension host's environment is the
// fallback, as the CLI honours it.

import * as vscode from 'vscode';
import { registerSecret } from '../core/redact';

const SECRET_KEY = 'ironbees.anthropicApiKey';

export class ApiKeyStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** Fires when any key this store keeps changes (a subclass keeping more keys names them in `secretKeys`). */
  readonly onDidChange: vscode.Event<vscode.SecretStorageChangeEvent> = (listener, thisArgs, disposables) =>
    this.secrets.onDidChange(
      (event) => (this.secretKeys().includes(event.key) ? listener.call(thisArgs, event) : undefined),
      undefined,
      disposables,
    );

  /** The SecretStorage keys this store keeps. */
  protected secretKeys(): readonly string[] {
    return [SECRET_KEY];
  }

  async get(): Promise<string | undefined> {
    const key = (await this.secrets.get(SECRET_KEY)) || this.env.ANTHROPIC_API_KEY || undefined;
    // Whatever its shape (a proxy's token too), the key is masked in every log, trace and message.
    registerSecret(key);
    return key;
  }

  async has(): Promise<boolean> {
    return (await this.get()) !== undefined;
  }

  async set(key: string): Promise<void> {
    registerSecret(key);
    await this.secrets.store(SECRET_KEY, key.trim());
  }

  async clear(): Promise<void> {
    await this.secrets.delete(SECRET_KEY);
  }

  /** Asks for the key (masked input). An empty answer clears the stored key. Returns true when set. */
  async prompt(): Promise<boolean> {
    const key = await vscode.window.showInputBox({
      title: 'Ironbees: Anthropic API key',
      prompt: 'Stored in VS Code secret storage, never in settings. Leave empty to remove the stored key.',
      password: true,
      ignoreFocusOut: true,
      placeHolder: 'sk-ant-…',
      validateInput: (value) => (value && !value.trim().startsWith('sk-') ? 'An Anthropic key starts with "sk-"' : undefined),
    });
    if (key === undefined) return false;
    if (!key.trim()) {
      await this.clear();
      void vscode.window.showInformationMessage('Ironbees: the stored API key was removed.');
      return false;
    }
    await this.set(key);
    void vscode.window.showInformationMessage('Ironbees: the API key is stored in secret storage.');
    return true;
  }
}
