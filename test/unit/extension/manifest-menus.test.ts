import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'mocha';

const root = path.join(__dirname, '..', '..', '..');

interface MenuItem {
  command: string;
  when?: string;
}

function extensionSources(dir: string): string {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .map((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return extensionSources(full);
      return entry.name.endsWith('.ts') ? fs.readFileSync(full, 'utf8') : '';
    })
    .join('\n');
}

describe('package.json menus', () => {
  it('use only context keys the extension sets (a key nobody sets makes a menu item lie)', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      contributes: { menus: Record<string, MenuItem[]> };
    };
    const sources = extensionSources(path.join(root, 'src', 'extension'));
    const keys = new Set(
      Object.values(manifest.contributes.menus)
        .flat()
        .flatMap((item) => item.when?.match(/\bironbees\.[A-Za-z]+\b/g) ?? [])
        // `view == ironbees.agent` names a view, not a context key.
        .filter((key) => key !== 'ironbees.agent'),
    );
    assert.ok(keys.size > 0);
    for (const key of keys) {
      assert.ok(sources.includes(`'${key}'`), `${key} is used in a menu's "when" but never set with setContext`);
    }
  });
});
