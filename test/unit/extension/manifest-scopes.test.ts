// A repository's .vscode/settings.json must not choose where model traffic goes or what needs the
// person's approval: VS Code applies a machine-scoped setting only from user or remote settings.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { PERSON_ONLY_SETTINGS } from '../../../src/extension/settings-keys';
import { PROVIDER_NAMES } from '../../../src/core/llm/providers/choice';
import { ProviderSettingKeys } from '../../../src/extension/provider-settings';

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { scope?: string; enum?: string[]; type?: string }> } };
};

describe('package.json: person-only settings', () => {
  const personOnly = [
    'anthropicBaseUrl',
    'approval.plan',
    'approval.diffs',
    'secretEnvironmentVariables',
    'telemetry.otlpEndpoint',
    'model',
    'maxIterations',
    'agentsFolder',
    'mcpServers',
    'contextFiles',
    'provider',
    'openaiBaseUrl',
    'fallback.provider',
    'fallback.model',
    'sandbox',
    'review',
    'reviewThreshold',
    'notify.webhook',
  ];

  it('are exactly what chooses where traffic goes, what needs approval, what runs or is read outside, and the model and its iterations', () => {
    assert.deepEqual([...PERSON_ONLY_SETTINGS], personOnly);
  });

  for (const key of personOnly) {
    it(`ironbees.${key} is machine- or application-scoped (a workspace cannot set it)`, () => {
      assert.ok(
        ['machine', 'application'].includes(manifest.contributes.configuration.properties[`ironbees.${key}`]?.scope ?? 'window'),
        key,
      );
    });
  }

  for (const key of ['model', 'maxIterations', 'agentsFolder', 'mcpServers', 'contextFiles', 'sandbox', 'notify.webhook']) {
    it(`ironbees.${key} (runs, reaches or reads outside) is machine-scoped`, () => {
      assert.equal(manifest.contributes.configuration.properties[`ironbees.${key}`]?.scope, 'machine');
    });
  }

  it('ironbees.sandbox offers auto, on and off, auto by default', () => {
    const sandbox = manifest.contributes.configuration.properties['ironbees.sandbox'] as { enum?: string[]; default?: string } | undefined;
    assert.deepEqual([sandbox?.enum, sandbox?.default], [['auto', 'on', 'off'], 'auto']);
  });

  it('no other endpoint or URL setting is left workspace-settable', () => {
    const urlLike = Object.entries(manifest.contributes.configuration.properties).filter(([name]) => /url|endpoint|baseurl/i.test(name));
    assert.deepEqual(
      urlLike.filter(([, value]) => value.scope !== 'machine' && value.scope !== 'application').map(([name]) => name),
      [],
    );
  });

  // The provider settings are application-scoped (user settings only), and each is declared, so the
  // settings editor offers the fallback the runtime honours (issue 13).
  for (const key of [
    ProviderSettingKeys.provider,
    ProviderSettingKeys.openaiBaseUrl,
    ProviderSettingKeys.fallbackProvider,
    ProviderSettingKeys.fallbackModel,
  ]) {
    it(`ironbees.${key} is declared, application-scoped`, () => {
      assert.equal(manifest.contributes.configuration.properties[`ironbees.${key}`]?.scope, 'application');
    });
  }

  it('ironbees.fallback.provider offers every provider, or none; ironbees.fallback.model is a string', () => {
    const properties = manifest.contributes.configuration.properties;
    assert.deepEqual(properties['ironbees.fallback.provider']?.enum, ['', ...PROVIDER_NAMES]);
    assert.equal(properties['ironbees.fallback.model']?.type, 'string');
  });
});
