// User settings every test and demo instance starts with: no welcome page, no trust prompt, no
// telemetry, nothing that steals focus or reaches the network.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export const quietSettings: Readonly<Record<string, unknown>> = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
};

export function writeSettings(file: string, extra: Readonly<Record<string, unknown>> = {}): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ ...quietSettings, ...extra }, null, 2)}\n`);
}
