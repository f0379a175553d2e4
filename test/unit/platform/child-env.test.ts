import assert from 'node:assert/strict';
import {
  CREDENTIAL_VARIABLES,
  SECRET_NAMES_ENV,
  childEnvironment,
  isCredentialVariable,
  parseSecretNames,
  setSecretEnvironmentVariables,
} from '../../../src/core/platform/child-env';
import { redact } from '../../../src/core/redact';

describe('childEnvironment', () => {
  afterEach(() => setSecretEnvironmentVariables([]));

  it('drops every provider credential and keeps everything else', () => {
    const base = {
      PATH: '/usr/bin',
      HOME: '/home/me',
      ANTHROPIC_API_KEY: 'a-key-value-1',
      ANTHROPIC_AUTH_TOKEN: 'a-token-value-2',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:1',
      OPENAI_API_KEY: 'o-key-value-3',
      AZURE_OPENAI_API_KEY: 'z-key-value-4',
      AWS_ACCESS_KEY_ID: 'aws-id-value-5',
      AWS_SECRET_ACCESS_KEY: 'aws-secret-value-6',
      AWS_SESSION_TOKEN: 'aws-session-value-7',
      AWS_REGION: 'eu-west-1',
      GOOGLE_APPLICATION_CREDENTIALS: '/keys/google.json',
      GOOGLE_API_KEY: 'g-key-value-8',
      GEMINI_API_KEY: 'gem-key-value-9',
      DOTNET_ROOT: '/usr/share/dotnet',
    };
    assert.deepEqual(childEnvironment({ base }), {
      PATH: '/usr/bin',
      HOME: '/home/me',
      AWS_REGION: 'eu-west-1',
      DOTNET_ROOT: '/usr/share/dotnet',
    });
  });

  it("drops the OpenTelemetry collector's header variables (its credentials), keeps the endpoint", () => {
    const base = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=otel-secret-value-1',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'authorization=Bearer otel-secret-value-2',
      OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'x-api-key=otel-secret-value-3',
      OTEL_EXPORTER_OTLP_LOGS_HEADERS: 'x-api-key=otel-secret-value-4',
      OTEL_SERVICE_NAME: 'svc',
    };
    assert.deepEqual(childEnvironment({ base }), { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SERVICE_NAME: 'svc' });
    assert.equal(redact('sent x-api-key=otel-secret-value-1'), 'sent [redacted]');
  });

  it('matches names without regard to case, as Windows does', () => {
    assert.deepEqual(childEnvironment({ base: { anthropic_api_key: 'x-value-long', Openai_Api_Key: 'y-value-long', Path: 'p' } }), {
      Path: 'p',
    });
  });

  it('drops the names the person added in the setting, exact or PREFIX_*', () => {
    setSecretEnvironmentVariables(['CORP_TOKEN', 'VAULT_*']);
    const env = childEnvironment({
      base: { CORP_TOKEN: 'corp-value-1', CORP_TOKENS: 'kept', VAULT_ADDR: 'vault-value', VAULTS: 'kept too' },
    });
    assert.deepEqual(env, { CORP_TOKENS: 'kept', VAULTS: 'kept too' });
  });

  it(`drops the names ${SECRET_NAMES_ENV} lists (the CLI's way), and that list itself stays`, () => {
    const env = childEnvironment({
      base: { [SECRET_NAMES_ENV]: 'CORP_TOKEN, OTHER_*', CORP_TOKEN: 'corp-value-2', OTHER_SECRET: 'other-value', KEEP: '1' },
    });
    assert.deepEqual(env, { [SECRET_NAMES_ENV]: 'CORP_TOKEN, OTHER_*', KEEP: '1' });
  });

  it('passes a variable the caller sets on purpose, even a credential name', () => {
    const env = childEnvironment({
      base: { OPENAI_API_KEY: 'inherited-value' },
      set: { OPENAI_API_KEY: 'named-in-config', DOTNET_NOLOGO: '1' },
    });
    assert.deepEqual(env, { OPENAI_API_KEY: 'named-in-config', DOTNET_NOLOGO: '1' });
  });

  it('defaults to this process environment', () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = 'from-process-env-value';
    try {
      const env = childEnvironment();
      assert.equal('ANTHROPIC_API_KEY' in env, false);
      assert.equal(env.PATH, process.env.PATH);
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
    }
  });

  it('registers the values it drops with the redactor, whatever their shape', () => {
    childEnvironment({ base: { AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG', ANTHROPIC_BASE_URL: 'http://127.0.0.1:4010' } });
    assert.equal(redact('secret=wJalrXUtnFEMI/K7MDENG!'), 'secret=[redacted]!');
    // A base URL is not a secret: it stays readable in logs.
    assert.equal(redact('at http://127.0.0.1:4010'), 'at http://127.0.0.1:4010');
  });

  it('knows the documented names', () => {
    for (const name of [
      'OPENAI_API_KEY',
      'AZURE_OPENAI_API_KEY',
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_SESSION_TOKEN',
      'GOOGLE_APPLICATION_CREDENTIALS',
      'GOOGLE_API_KEY',
      'GEMINI_API_KEY',
    ]) {
      assert.ok(CREDENTIAL_VARIABLES.includes(name), name);
    }
    assert.equal(isCredentialVariable('ANTHROPIC_ANYTHING'), true);
    assert.equal(isCredentialVariable('AWS_PROFILE'), false);
    assert.deepEqual(parseSecretNames(' A,B ;C_*  D '), ['A', 'B', 'C_*', 'D']);
  });
});
