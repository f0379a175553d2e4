// A provider is named once: its module (src/core/llm/providers/<name>/provider.ts) declares its name,
// variables, default model and settings; registry.ts lists the modules, and every surface that
// names providers is read from (or checked against) that list.

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { MODEL_PROVIDERS, PROVIDER_NAMES } from '../../../src/core/llm/providers/registry';
import { agentYamlSchema } from '../../../src/core/agents/agent-schema';
import { parseCliArgs } from '../../../src/cli/args';
import { usageText } from '../../../src/cli/usage';
import { createModelClient, modelProviderNames, providerFactory, registerModelProvider } from '../../../src/core/runtime/model-client';
import { chatText, startFakeOpenAI } from '../../support/fake-openai';
import { toyProvider } from '../../support/toy-provider/provider';
import type { Logger } from '../../../src/core/host';

const REPO = path.resolve(__dirname, '..', '..', '..');
const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

interface SettingSchema {
  enum?: string[];
  enumDescriptions?: string[];
}
const settings = (
  JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, SettingSchema> } };
  }
).contributes.configuration.properties;

describe('the provider registry', () => {
  it('names each provider once; the names are read from the modules', () => {
    assert.deepEqual(PROVIDER_NAMES, ['anthropic', 'openai']);
    assert.deepEqual(
      MODEL_PROVIDERS.map((provider) => provider.name),
      PROVIDER_NAMES,
    );
    assert.deepEqual(modelProviderNames().slice(0, PROVIDER_NAMES.length + 1), [...PROVIDER_NAMES, 'demo']);
    assert.deepEqual(
      MODEL_PROVIDERS.map((provider) => [provider.envVariables.apiKey, provider.envVariables.baseURL]),
      [
        ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'],
        ['OPENAI_API_KEY', 'OPENAI_BASE_URL'],
      ],
    );
  });

  it("the editor's provider settings list exactly the registry's providers, with their labels", () => {
    assert.deepEqual(settings['ironbees.provider'].enum, PROVIDER_NAMES);
    assert.deepEqual(
      settings['ironbees.provider'].enumDescriptions,
      MODEL_PROVIDERS.map((provider) => provider.label),
    );
    assert.deepEqual(settings['ironbees.fallback.provider'].enum, ['', ...PROVIDER_NAMES]);
  });

  it("the CLI's help, its flags and agent.yaml accept exactly the registry's providers", () => {
    const help = usageText('run');
    assert.ok(help.includes(`--provider ${PROVIDER_NAMES.join('|')} `), help);
    assert.ok(help.includes(`--fallback-provider ${PROVIDER_NAMES.join('|')} `), help);
    for (const name of PROVIDER_NAMES) {
      const command = parseCliArgs(['run', 'Fix it', '--provider', name, '--model', 'm'], REPO);
      assert.equal(command.command === 'run' && command.provider, name);
      const yaml = agentYamlSchema.safeParse({ name: 'a', description: 'd', version: '1.0.0', llmConfig: { provider: name, model: 'm' } });
      assert.ok(yaml.success, name);
    }
    assert.throws(
      () => parseCliArgs(['run', 'Fix it', '--provider', 'toy', '--model', 'm'], REPO),
      /--provider must be one of anthropic, openai \(got "toy"\)/,
    );
  });

  it('a new OpenAI-compatible provider is one module: registered, its key and endpoint come from its own variables and its calls reach its server', async () => {
    assert.equal(toyProvider.defaultModel, 'toy-model-1');
    registerModelProvider(toyProvider.name, providerFactory(toyProvider));
    assert.throws(
      () => createModelClient({ provider: 'toy', env: { OPENAI_BASE_URL: 'http://127.0.0.1:9' } }),
      /^ConfigurationError: No toy API key: set TOY_API_KEY, or TOY_BASE_URL for a local OpenAI-compatible server/,
    );
    const fake = await startFakeOpenAI();
    try {
      fake.enqueue(chatText('hello from the toy'));
      const client = createModelClient({
        provider: 'toy',
        env: { TOY_BASE_URL: fake.url, TOY_API_KEY: 'toy-key-0123456789' },
        logger: silent,
      });
      const answer = await client.complete({
        model: 'toy-model-1',
        system: '',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        maxTokens: 16,
      });
      assert.deepEqual(answer.content, [{ type: 'text', text: 'hello from the toy' }]);
      assert.equal(fake.requests.length, 1);
      assert.equal(fake.requests[0].body.model, 'toy-model-1');
      assert.equal(fake.requests[0].headers.authorization, 'Bearer toy-key-0123456789');
    } finally {
      await fake.close();
    }
  });
});
