// IRONBEES_NUGET_SOURCE adds feeds to every restore through MSBuild's RestoreAdditionalProjectSources.

import assert from 'node:assert/strict';
import { buildEnv, testEnv } from '../../../src/core/dotnet/dotnet-cli';
import { extraPackageSources, extraSourcesEnv } from '../../../src/core/dotnet/package-sources';

describe('IRONBEES_NUGET_SOURCE', () => {
  const saved = process.env.IRONBEES_NUGET_SOURCE;
  afterEach(() => {
    if (saved === undefined) delete process.env.IRONBEES_NUGET_SOURCE;
    else process.env.IRONBEES_NUGET_SOURCE = saved;
  });

  it('lists its `;`-separated feeds, blanks left out', () => {
    assert.deepEqual(extraPackageSources({ IRONBEES_NUGET_SOURCE: ' /opt/feed ; ;https://mirror.example/v3/index.json ' }), [
      '/opt/feed',
      'https://mirror.example/v3/index.json',
    ]);
    assert.deepEqual(extraPackageSources({ IRONBEES_NUGET_SOURCE: '  ' }), []);
    assert.deepEqual(extraPackageSources({}), []);
  });

  it('becomes RestoreAdditionalProjectSources, after the ones already set and without repeating them', () => {
    assert.deepEqual(extraSourcesEnv({ IRONBEES_NUGET_SOURCE: '/opt/feed' }), { RestoreAdditionalProjectSources: '/opt/feed' });
    assert.deepEqual(extraSourcesEnv({ IRONBEES_NUGET_SOURCE: '/opt/feed;/b', RestoreAdditionalProjectSources: '/a;/opt/feed' }), {
      RestoreAdditionalProjectSources: '/a;/opt/feed;/b',
    });
    assert.deepEqual(extraSourcesEnv({ RestoreAdditionalProjectSources: '/a' }), {});
  });

  it('reaches every dotnet build and test Ironbees starts', () => {
    process.env.IRONBEES_NUGET_SOURCE = '/srv/offline-feed';
    assert.equal(buildEnv().RestoreAdditionalProjectSources, '/srv/offline-feed');
    assert.equal(testEnv().RestoreAdditionalProjectSources, '/srv/offline-feed');
    delete process.env.IRONBEES_NUGET_SOURCE;
    assert.equal('RestoreAdditionalProjectSources' in buildEnv(), false);
  });
});
