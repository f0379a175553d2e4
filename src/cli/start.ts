// The `ironbees` command (bundled alone to dist/cli.js, a few KB): runs the CLI proper
// (dist/cli-main.js, from main.ts) through the V8 code cache, so a start does not compile the whole
// bundle again. IRONBEES_CODE_CACHE=0 turns the cache off.

import * as path from 'node:path';
import { userCacheDir } from '../core/platform/user-cache';
import { codeCacheFile, runBundle } from './code-cache';

// esbuild writes the bundle's hash here when it builds this file (esbuild.mjs).
declare const IRONBEES_CLI_MAIN_HASH: string | undefined;
const bundleHash = typeof IRONBEES_CLI_MAIN_HASH === 'string' ? IRONBEES_CLI_MAIN_HASH : null;

const cacheDir = process.env.IRONBEES_CODE_CACHE === '0' ? null : userCacheDir(process.env);
// A run or resume compiles most of the bundle: the cache it writes serves every later start.
const fullRun = ['run', 'resume'].includes(process.argv[2] ?? '');
runBundle(path.join(__dirname, 'cli-main.js'), codeCacheFile(cacheDir, bundleHash), fullRun);
