// The panel's webview may load local files only from the extension's own dist/webview folder
// (`localResourceRoots`): a page that a model's words could ever steer must not read the workspace
// or the person's files through a vscode-resource URL. The provider is run here against a stand-in
// of the `vscode` module, so the options it sets are checked exactly.

import assert from 'node:assert/strict';
import Module from 'node:module';
import * as path from 'node:path';
import type * as ProviderModule from '../../../src/extension/webview/agent-view-provider';

interface FakeUri {
  fsPath: string;
}

const vscodeStub = {
  Uri: { joinPath: (base: FakeUri, ...parts: string[]): FakeUri => ({ fsPath: path.join(base.fsPath, ...parts) }) },
  EventEmitter: class {
    readonly event = (): { dispose(): void } => ({ dispose: () => undefined });
    fire(): void {}
    dispose(): void {}
  },
  commands: { executeCommand: async (): Promise<void> => undefined },
};

type Resolve = (request: string, ...rest: unknown[]) => string;

describe('the Agent webview options', () => {
  const moduleApi = Module as unknown as { _resolveFilename: Resolve };
  const original = moduleApi._resolveFilename;
  const stubPath = path.join(__dirname, '__vscode_stub__.js');

  before(() => {
    require.cache[stubPath] = { id: stubPath, filename: stubPath, loaded: true, exports: vscodeStub } as unknown as NodeJS.Module;
    moduleApi._resolveFilename = function (request: string, ...rest: unknown[]): string {
      return request === 'vscode' ? stubPath : original.call(this, request, ...rest);
    };
  });
  after(() => {
    moduleApi._resolveFilename = original;
    delete require.cache[stubPath];
  });

  it('allow scripts and local resources from dist/webview only', () => {
    // Loaded here, once `vscode` resolves to the stand-in.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { AgentViewProvider } = require('../../../src/extension/webview/agent-view-provider') as typeof ProviderModule;
    const extensionUri = { fsPath: path.join(path.sep, 'ext') };
    const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    const provider = new AgentViewProvider(extensionUri as never, { snapshot: async () => [] }, async () => undefined, silent);
    const webview = {
      options: {} as unknown,
      html: '',
      cspSource: 'vscode-webview:',
      asWebviewUri: (uri: FakeUri): FakeUri => uri,
      onDidReceiveMessage: () => ({ dispose: () => undefined }),
      postMessage: async () => true,
    };
    const view = {
      webview,
      visible: true,
      onDidChangeVisibility: () => ({ dispose: () => undefined }),
      onDidDispose: () => ({ dispose: () => undefined }),
    };
    provider.resolveWebviewView(view as never);
    assert.deepEqual(webview.options, {
      enableScripts: true,
      localResourceRoots: [{ fsPath: path.join(path.sep, 'ext', 'dist', 'webview') }],
    });
  });
});
