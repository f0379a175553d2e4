// The "Ironbees" LogOutputChannel, and the core's Logger on top of it. Anything that looks like
// an Anthropic key is masked before it is written: a key must never reach a log.

import * as vscode from 'vscode';
import type { Logger } from '../core/host';

const KEY_PATTERN = /sk-ant-[A-Za-z0-9_-]{6,}/g;

export function redactSecrets(text: string): string {
  return text.replace(KEY_PATTERN, 'sk-ant-…[redacted]');
}

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
