import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMAND_IDS } from '../../../src/extension/commands';
import { EXTENSION_ID, activationMs, eventually, ironbees } from './helpers';

describe('activation (real extension host)', () => {
  it('activates and registers every command the manifest lists, under the Ironbees category', async () => {
    const services = await ironbees();
    assert.ok(services.controller);
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const id of COMMAND_IDS) assert.ok(registered.has(id), `${id} is registered`);
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    const manifest = extension?.packageJSON as {
      contributes: { commands: Array<{ command: string; category: string }> };
      capabilities: { untrustedWorkspaces: { supported: boolean } };
    };
    assert.deepEqual(manifest.contributes.commands.map((c) => c.command).sort(), [...COMMAND_IDS].sort());
    assert.ok(manifest.contributes.commands.every((c) => c.category === 'Ironbees'));
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, false);
  });

  it('activates quickly (the core loads on the first run, not before)', async () => {
    const ms = await activationMs();
    console.log(`      activation took ${ms.toFixed(1)} ms`);
    assert.ok(ms < 500, `activation took ${ms} ms`);
  });

  it('shows the status bar item and opens the Agent panel, whose webview says ready', async () => {
    const services = await ironbees();
    assert.match(services.statusBar.renderedText, /Ironbees/);
    await vscode.commands.executeCommand('ironbees.showPanel');
    await eventually('the panel to say ready', () => services.view.isReady, 30_000);
    assert.equal(services.view.isReady, true);
  });

  it('reads its settings (the suite runs with the scripted demo model)', () => {
    assert.equal(vscode.workspace.getConfiguration('ironbees').get('demoModel'), true);
    assert.equal(vscode.workspace.getConfiguration('ironbees').get('approval.plan'), 'always');
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    assert.ok(fs.existsSync(path.join(root, 'Calculator.slnx')));
  });
});
