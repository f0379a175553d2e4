const assert = require('node:assert/strict');
const vscode = require('vscode');

describe('runner self-test', () => {
  it('runs inside a real extension host with the workspace open', async () => {
    await vscode.extensions.getExtension('ironbees.ironbees-runner-selftest').activate();
    assert.equal(await vscode.commands.executeCommand('ironbeesSelftest.hello', 'bees'), 'hello bees');
    assert.ok(vscode.workspace.workspaceFolders?.length, 'a folder is open');
    const found = await vscode.workspace.findFiles('**/*.csproj');
    assert.ok(found.length > 0, 'the fixture workspace is the one opened');
    assert.equal(vscode.workspace.getConfiguration('ironbeesSelftest').get('marker'), 'from-user-settings');
  });

  if (process.env.IRONBEES_SELFTEST_FAIL === '1') {
    it('fails on purpose (proves a failing assertion gives exit 1)', () => {
      assert.equal(1 + 1, 3);
    });
  }
});
