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

  it('opens the run full width in the editor area as one tab, whose page says ready and gets what the sidebar gets', async () => {
    const services = await ironbees();
    const runTabs = (): vscode.Tab[] =>
      vscode.window.tabGroups.all
        .flatMap((group) => group.tabs)
        .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('ironbees.run'));
    await vscode.commands.executeCommand('ironbees.openRunView');
    await eventually('the editor panel to say ready', () => services.view.isEditorPanelReady, 30_000);
    await vscode.commands.executeCommand('ironbees.openRunView');
    assert.equal(runTabs().length, 1, 'a second open shows the same tab');
    assert.equal(runTabs()[0].label, 'Ironbees Run');
    // Its own messages reach the extension as the sidebar's do.
    const seen = new Promise<string>((resolve) => {
      const listener = services.view.onDidReceiveMessage((message) => {
        listener.dispose();
        resolve(message.type);
      });
    });
    await vscode.window.tabGroups.close(runTabs()[0]);
    await eventually('the panel closed', () => runTabs().length === 0 && !services.view.isEditorPanelReady);
    await vscode.commands.executeCommand('ironbees.openRunView');
    assert.equal(await seen, 'ready', 'a reopened panel asks for the picture');
    await eventually('the reopened panel to say ready', () => services.view.isEditorPanelReady, 30_000);
    await vscode.window.tabGroups.close(runTabs());
  });

  it('reads its settings (the suite runs with the scripted demo model)', () => {
    assert.equal(vscode.workspace.getConfiguration('ironbees').get('demoModel'), true);
    assert.equal(vscode.workspace.getConfiguration('ironbees').get('approval.plan'), 'always');
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    assert.ok(fs.existsSync(path.join(root, 'Calculator.slnx')));
  });
});
