// `ironbees serve`'s command line and the --notify-webhook option of `run`.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { parseCliArgs } from '../../../src/cli/args';
import { UsageError } from '../../../src/cli/exit-codes';

describe('serve arguments', () => {
  it('needs at least one --workspace-root; defaults to 127.0.0.1 and any free port', () => {
    assert.throws(() => parseCliArgs(['serve'], '/home/me'), UsageError);
    assert.deepEqual(parseCliArgs(['serve', '--workspace-root', 'a', '--workspace-root', '/b'], '/home/me'), {
      command: 'serve',
      host: '127.0.0.1',
      port: 0,
      workspaceRoots: [path.resolve('/home/me', 'a'), path.resolve('/b')],
      trustWorkspace: false,
      demo: false,
      sandbox: 'auto',
    });
  });

  it('takes --host, --port, --notify-webhook and refuses bad values', () => {
    const args = parseCliArgs(
      ['serve', '--workspace-root', '/r', '--host', '0.0.0.0', '--port', '8080', '--notify-webhook', 'https://hooks.example/x'],
      '/',
    );
    assert.deepEqual(args.command === 'serve' && [args.host, args.port, args.notifyWebhook], ['0.0.0.0', 8080, 'https://hooks.example/x']);
    assert.throws(() => parseCliArgs(['serve', '--workspace-root', '/r', '--port', '70000'], '/'), /--port must be/);
    assert.throws(() => parseCliArgs(['serve', '--workspace-root', '/r', '--notify-webhook', 'file:///etc/passwd'], '/'), /http\(s\) URL/);
    assert.throws(() => parseCliArgs(['serve', '--workspace-root', '/r', 'extra'], '/'), /takes no arguments/);
  });

  it('run takes --notify-webhook too', () => {
    const run = parseCliArgs(['run', 'Fix it', '--notify-webhook', 'http://127.0.0.1:9/hook'], '/w');
    assert.equal(run.command === 'run' && run.notifyWebhook, 'http://127.0.0.1:9/hook');
    assert.throws(() => parseCliArgs(['run', 'Fix it', '--notify-webhook', 'nope'], '/w'), UsageError);
  });

  it('resume takes --notify-webhook too', () => {
    const resume = parseCliArgs(['resume', 'run-1', '--notify-webhook', 'https://hooks.example/r'], '/w');
    assert.equal(resume.command === 'resume' && resume.notifyWebhook, 'https://hooks.example/r');
    const plain = parseCliArgs(['resume', 'run-1'], '/w');
    assert.equal(plain.command === 'resume' && 'notifyWebhook' in plain, false);
    assert.throws(() => parseCliArgs(['resume', 'run-1', '--notify-webhook', 'ftp://x'], '/w'), /http\(s\) URL/);
  });
});
