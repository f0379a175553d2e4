// The "Ironbees" LogOutputChannel, and the core's Logger on top of it. Every line goes through the
// core's redactor first (src/core/redact.ts): a secret value must never reach a log.

import * as vscode from 'vscode';
import type { Logger } from '../core/host';
import { redact } from '../core/redact';

export const redactSecrets = redact;

export function createLogChannel(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Ironbees', { log: true });
}

export function loggerFor(channel: vscode.LogOutputChannel): Logger {
  return {
    debug: (message) => channel.debug(redactSecrets(message)),
    info: (message) => channel.info(redactSecrets(message)),
    warn: (message) => channel.warn(redactSecrets(message)),
    error: (message) => channel.error(redactSecrets(message)),
  };
}
