// The editor's model client honours "ironbees.fallback.provider"/"model" (issue 13): built from the
// settings and keys as a run in VS Code builds it, against fake servers on 127.0.0.1. When the
// primary answers 529 until the SDK's retries are spent, the fallback answers with the fallback
// model, and the switch is a warning in the extension's log. A fallback with no key is refused
// before any run, naming the fallback setting.

import assert from 'node:assert/strict';
import { ConfigurationError } from '../../../src/core/errors';
import type { Logger } from '../../../src/core/host';
import type { ModelRequest } from '../../../src/core/llm/port';
import { DEFAULT_MAX_RETRIES } from '../../../src/core/llm/providers/anthropic/anthropic';
import { createModel } from '../../../src/extension/provider-model';
import type { IronbeesSettings } from '../../../src/extension/settings';
import { httpError, startFakeAnthropic, text } from '../../support/fake-anthropic';
import type { FakeAnthropic } from '../../support/fake-anthropic';
import { chatText, startFakeOpenAI } from '../../support/fake-openai';
import type { FakeOpenAI } from '../../support/fake-openai';

const REQUEST: ModelRequest = {
  provider: 'anthropic',
  model: 'claude-sonnet-4-6',
  system: 'You are the planner.',
  tools: [],
  messages: [{ role: 'user', content: 'Plan the fix.' }],
  maxTokens: 200,
};

const OVERLOADED = 'The API is overloaded (529) even after retries (the API said: fake-anthropic: scripted 529). Try again later.';

function settings(overrides: Partial<IronbeesSettings>): IronbeesSettings {
  return {
    provider: 'anthropic',
    model: '',
    demoModel: false,
    anthropicBaseUrl: '',
    openaiBaseUrl: '',
    fallback: null,
    ...overrides,
  } as IronbeesSettings;
}

function recordingLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  return { logger: { debug: () => {}, info: () => {}, warn: (message) => warnings.push(message), error: () => {} }, warnings };
}

/** One attempt plus every retry of the SDK's default, all overloaded. */
function outage(): ReturnType<typeof httpError>[] {
  return Array.from({ length: DEFAULT_MAX_RETRIES + 1 }, () => httpError(529));
}

describe('extension createModel: the fallback provider of the settings (fake servers)', function () {
  this.timeout(20_000);
  let anthropic: FakeAnthropic;
  let openai: FakeOpenAI;
  const savedEnv = { OPENAI_API_KEY: process.env.OPENAI_API_KEY, OPENAI_BASE_URL: process.env.OPENAI_BASE_URL };

  beforeEach(async () => {
    // The OpenAI-compatible key and base URL may come from the environment; these tests set their own.
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    anthropic = await startFakeAnthropic();
    openai = await startFakeOpenAI();
  });
  afterEach(async () => {
    for (const [name, value] of Object.entries(savedEnv)) if (value !== undefined) process.env[name] = value;
    await anthropic.close();
    await openai.close();
  });

  it('answers from the OpenAI-compatible fallback with its model once Claude\u2019s retries are spent, and logs the switch', async () => {
    const { logger, warnings } = recordingLogger();
    const client = createModel({
      settings: settings({
        anthropicBaseUrl: anthropic.url,
        openaiBaseUrl: openai.url,
        fallback: { provider: 'openai', model: 'local-backup' },
      }),
      apiKey: 'sk-ant-test',
      openaiApiKey: 'sk-openai-test',
      logger,
    });
    anthropic.enqueue(...outage());
    openai.enqueue(chatText('plan from the backup'));

    const response = await client.complete(REQUEST);

    assert.deepEqual(response.content, [{ type: 'text', text: 'plan from the backup' }]);
    assert.deepEqual(response.fallback, { from: 'anthropic/claude-sonnet-4-6', to: 'openai/local-backup', reason: OVERLOADED });
    assert.equal(anthropic.requests.length, DEFAULT_MAX_RETRIES + 1, 'the primary was tried until its retries were spent');
    assert.equal(openai.requests.length, 1);
    assert.equal(openai.requests[0].body.model, 'local-backup');
    assert.equal(openai.requests[0].headers.authorization, 'Bearer sk-openai-test', 'the fallback uses the OpenAI-compatible key');
    // (The other warning is the price table not knowing "local-backup".)
    assert.deepEqual(
      warnings.filter((warning) => warning.startsWith('Model calls')),
      [`Model calls switched to the fallback openai/local-backup: ${OVERLOADED}`],
    );
  });

  it('a fallback on the same provider asks the same endpoint for the fallback model', async () => {
    const { logger, warnings } = recordingLogger();
    const client = createModel({
      settings: settings({ anthropicBaseUrl: anthropic.url, fallback: { provider: 'anthropic', model: 'claude-haiku-4-5' } }),
      apiKey: 'sk-ant-test',
      logger,
    });
    anthropic.enqueue(...outage(), text('haiku answers'));

    const response = await client.complete(REQUEST);

    assert.deepEqual(response.content, [{ type: 'text', text: 'haiku answers' }]);
    assert.equal(anthropic.requests.length, DEFAULT_MAX_RETRIES + 2);
    assert.equal(anthropic.requests.at(-1)?.body.model, 'claude-haiku-4-5');
    assert.deepEqual(warnings, [`Model calls switched to the fallback anthropic/claude-haiku-4-5: ${OVERLOADED}`]);
  });

  it('without a fallback setting an outage is reported, not answered elsewhere', async () => {
    const { logger, warnings } = recordingLogger();
    const client = createModel({
      settings: settings({ anthropicBaseUrl: anthropic.url, openaiBaseUrl: openai.url }),
      apiKey: 'sk-ant-test',
      openaiApiKey: 'k',
      logger,
    });
    anthropic.enqueue(...outage());
    await assert.rejects(client.complete(REQUEST), (error: unknown) => error instanceof Error && error.message === OVERLOADED);
    assert.equal(openai.requests.length, 0);
    assert.deepEqual(warnings, []);
  });

  it('a fallback provider without a key is a configuration error naming the fallback setting', () => {
    const { logger } = recordingLogger();
    assert.throws(
      () =>
        createModel({
          settings: settings({ anthropicBaseUrl: anthropic.url, fallback: { provider: 'openai', model: 'gpt-4.1-mini' } }),
          apiKey: 'sk-ant-test',
          logger,
        }),
      (error: unknown) =>
        error instanceof ConfigurationError &&
        error.message ===
          'No API key for the fallback provider OpenAI-compatible (setting "ironbees.fallback.provider"). Run "Ironbees: Set API Key" and choose OpenAI-compatible, set OPENAI_API_KEY, or set "ironbees.openaiBaseUrl" to a local server; or clear "ironbees.fallback.provider".' &&
        error.details.setting === 'fallback.provider' &&
        error.details.provider === 'openai',
    );
    assert.throws(
      () =>
        createModel({
          settings: settings({
            provider: 'openai',
            openaiBaseUrl: openai.url,
            fallback: { provider: 'anthropic', model: 'claude-haiku-4-5' },
          }),
          apiKey: undefined,
          logger,
        }),
      (error: unknown) =>
        error instanceof ConfigurationError &&
        error.message ===
          'No API key for the fallback provider Anthropic (setting "ironbees.fallback.provider"). Run "Ironbees: Set API Key" and choose Anthropic, or set ANTHROPIC_API_KEY; or clear "ironbees.fallback.provider".' &&
        error.details.provider === 'anthropic',
    );
  });

  it('the demo model needs no key, not even the fallback’s (it has no outage to fall back from)', () => {
    const { logger } = recordingLogger();
    const client = createModel({
      settings: settings({ demoModel: true, fallback: { provider: 'openai', model: 'gpt-4.1-mini' } }),
      apiKey: undefined,
      logger,
    });
    assert.equal(typeof client.complete, 'function');
  });
});
