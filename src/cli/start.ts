// The `ironbees` command (bundled alone to dist/cli.js, a few KB): runs the CLI proper
// (dist/cli-main.js, from main.ts) through the V8 code cache, so a start does not compile the whole
// bundle again. Libraries a start does not need (zod, the model SDKs, MCP…), each in a bundle of its
// own beside it (dist/cli-zod.js…, scripts/side-bundles.mjs), go through a cache of their own at their
// first require.
// IRONBEES_CODE_CACHE=0 turns the caches off.

import * as path from 'node:path';
import { userCacheDir } from '../core/user-cache';
import { codeCacheFile, runBundle } from './code-cache';

// esbuild writes the bundles' hashes here when it builds this file (esbuild.mjs).
declare const IRONBEES_CLI_MAIN_HASH: string | undefined;
declare const IRONBEES_CLI_SIDE_BUNDLES: Record<string, { name: string; hash: string }> | undefined;
const bundleHash = typeof IRONBEES_CLI_MAIN_HASH === 'string' ? IRONBEES_CLI_MAIN_HASH : null;
const sideBundles = typeof IRONBEES_CLI_SIDE_BUNDLES === 'object' ? IRONBEES_CLI_SIDE_BUNDLES : {};

const cacheDir = process.env.IRONBEES_CODE_CACHE === '0' ? null : userCacheDir(process.env);
// A run or resume compiles most of the bundle: the cache it writes serves every later start.
const fullRun = ['run', 'resume'].includes(process.argv[2] ?? '');
const sideCaches = Object.fromEntries(Object.entries(sideBundles).map(([request, { name, hash }]) => [request, codeCacheFile(cacheDir, hash, name)]));
runBundle(path.join(__dirname, 'cli-main.js'), codeCacheFile(cacheDir, bundleHash), fullRun, sideCaches);
