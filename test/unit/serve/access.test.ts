// Who may use the served API: the token compare, one-time login codes, origins, workspace roots.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Sessions, allowedOrigins, bearerOf, originAllowed, tokenMatches, workspaceInRoots } from '../../../src/serve/access';
import { RunChannel } from '../../../src/serve/run-channel';

describe('serve/access', () => {
  it('matches the token exactly (longer, shorter, other case: no)', () => {
    assert.equal(tokenMatches('abcdefghijklmnop', 'abcdefghijklmnop'), true);
    assert.equal(tokenMatches('abcdefghijklmnopq', 'abcdefghijklmnop'), false);
    assert.equal(tokenMatches('abcdefghijklmno', 'abcdefghijklmnop'), false);
    assert.equal(tokenMatches('ABCDEFGHIJKLMNOP', 'abcdefghijklmnop'), false);
    assert.equal(bearerOf('Bearer t0k'), 't0k');
    assert.equal(bearerOf('Basic t0k'), null);
    assert.equal(bearerOf(undefined), null);
  });

  it('a login code works once, and only within its lifetime', async () => {
    const sessions = new Sessions();
    const code = sessions.newCode();
    const session = sessions.redeem(code);
    assert.ok(session);
    assert.equal(sessions.has(session), true);
    assert.equal(sessions.redeem(code), null, 'spent');
    assert.equal(sessions.has('made-up'), false);
    const short = new Sessions(1);
    const late = short.newCode();
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(short.redeem(late), null, 'expired');
  });

  it("allows the server's own origin (and loopback names), or none; refuses others", () => {
    const allowed = allowedOrigins('127.0.0.1', 8080);
    assert.equal(originAllowed(undefined, allowed), true);
    assert.equal(originAllowed('http://127.0.0.1:8080', allowed), true);
    assert.equal(originAllowed('http://localhost:8080', allowed), true);
    assert.equal(originAllowed('http://127.0.0.1:8081', allowed), false);
    assert.equal(originAllowed('https://127.0.0.1:8080', allowed), false);
    assert.equal(originAllowed('null', allowed), false);
    assert.equal(originAllowed('http://evil.example', allowed), false);
  });

  describe('workspaceInRoots', () => {
    let base: string;
    let root: string;
    before(() => {
      base = realpathSync(mkdtempSync(path.join(tmpdir(), 'ironbees-roots-')));
      root = path.join(base, 'root');
      mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
      mkdirSync(path.join(base, 'rootother'));
      mkdirSync(path.join(base, 'out'));
      writeFileSync(path.join(root, 'file.txt'), 'x');
      symlinkSync(path.join(base, 'out'), path.join(root, 'link-out'));
      symlinkSync(path.join(root, 'a'), path.join(base, 'link-in'));
    });
    after(() => rmSync(base, { recursive: true, force: true }));

    it('accepts the root and folders below it, by their real path', async () => {
      assert.deepEqual(await workspaceInRoots(root, [root]), { ok: true, workspace: root });
      assert.deepEqual(await workspaceInRoots(path.join(root, 'a', 'b'), [root]), { ok: true, workspace: path.join(root, 'a', 'b') });
      assert.deepEqual(await workspaceInRoots(path.join(base, 'link-in'), [root]), { ok: true, workspace: path.join(root, 'a') });
    });

    it('refuses with 403 what is outside (a sibling sharing the prefix, .., a link out of the root)', async () => {
      for (const outside of [path.join(base, 'rootother'), path.join(root, '..', 'out'), path.join(root, 'link-out'), base]) {
        const check = await workspaceInRoots(outside, [root]);
        assert.equal(check.ok ? 200 : check.status, 403, outside);
      }
    });

    it('refuses with 400 a relative path, a missing folder, a file', async () => {
      for (const bad of ['root/a', path.join(root, 'missing'), path.join(root, 'file.txt')]) {
        const check = await workspaceInRoots(bad, [root]);
        assert.equal(check.ok ? 200 : check.status, 400, bad);
      }
    });
  });
});

describe('serve/run-channel: event ids for Last-Event-ID', () => {
  it('replays exactly what came after the id; an unknown id or none replays all', () => {
    const channel = new RunChannel('e1');
    for (let i = 0; i < 5; i++) channel.publish(i % 2 ? 'activity' : 'state', { i });
    assert.deepEqual(
      channel.since('e1.3').map((e) => e.id),
      ['e1.4', 'e1.5'],
    );
    assert.deepEqual(channel.since('e1.5'), []);
    assert.equal(channel.since(undefined).length, 5);
    assert.equal(channel.since('other-epoch.3').length, 5);
    assert.equal(channel.since('garbage').length, 5);
  });

  it('a full buffer drops its oldest events but still starts with the latest state', () => {
    const channel = new RunChannel('e2', 10);
    channel.publish('state', { n: 1 });
    for (let i = 0; i < 12; i++) channel.publish('activity', { i });
    const replay = channel.since(undefined);
    assert.equal(replay[0].event, 'state');
    assert.equal(replay[0].id, 'e2.1');
    assert.equal(replay[1].id, 'e2.7');
    assert.deepEqual(
      channel.since('e2.2').map((e) => e.id),
      replay.map((e) => e.id),
      'an id older than the buffer replays it all',
    );
  });

  it('tells a follower the end, at once when the run had already ended', async () => {
    const channel = new RunChannel('e3');
    let ends = 0;
    channel.subscribe(
      () => undefined,
      () => (ends += 1),
    );
    channel.end();
    assert.equal(ends, 1);
    await new Promise<void>((resolve) => channel.subscribe(() => undefined, resolve));
  });
});
