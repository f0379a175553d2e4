// The smallest extension that does something observable: one command returning a greeting.
const vscode = require('vscode');

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand('ironbeesSelftest.hello', (name) => {
      // Run from the palette (no argument) it shows a notification the browser smoke test looks for.
      if (name === undefined) void vscode.window.showInformationMessage('hello from the Ironbees self-test');
      return `hello ${name}`;
    }),
  );
};
exports.deactivate = () => undefined;
