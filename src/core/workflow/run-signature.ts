// A run folder is data, not orders. A repository can ship `.ironbees/runs/<id>/state.json` saying
// "diffs: never" and "contextFiles: [/proc/self/environ]"; `resume` must not obey it. So every
// state.json this machine writes carries an HMAC of the run's orders (what loosens approvals or adds
// context), keyed by a per-user secret kept outside every workspace (the user cache folder, mode
// 600). On resume, a run whose signature is missing or does not match was not made here by this
// person: its orders are replaced by the strict defaults, each one named.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WorkflowContext } from '../model';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { userCacheDir } from '../platform/user-cache';

type Env = Readonly<Record<string, string | undefined>>;

/** The parts of the statechart's context a signature covers. */
export interface RunOrdersContext {
  workflow: WorkflowContext;
  planApprovedByPerson?: boolean;
}

const KEY_BYTES = 32;
const keys = new Map<string, Buffer>();

/** Where the per-user key lives: the user cache folder, never a workspace. */
export function runKeyFile(env: Env = process.env): string {
  return path.join(userCacheDir(env), 'run-signing.key');
}

/** The per-user key, made on first use (private: mode 600 in a folder of mode 700). */
function runKey(env: Env): Buffer {
  const file = runKeyFile(env);
  const known = keys.get(file);
  if (known) return known;
  let key: Buffer;
  try {
    key = fs.readFileSync(file);
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(file, randomBytes(KEY_BYTES), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      // Another process made it first: use that one.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    key = fs.readFileSync(file);
  }
  keys.set(file, key);
  return key;
}

/** The orders, in a fixed order of fields: what a signature is computed over (the run id alone for a run without them). */
function ordersText(runId: string, context: RunOrdersContext | null): string {
  if (!context) return JSON.stringify([runId]);
  const w = context.workflow;
  return JSON.stringify([
    runId,
    w.workspaceRoot,
    w.approval?.plan,
    w.approval?.diffs,
    w.contextFiles ?? [],
    context.planApprovedByPerson === true,
  ]);
}

/** The HMAC-SHA256 of the run's orders, in hex. */
export function signRunOrders(runId: string, context: RunOrdersContext | null, env: Env = process.env): string {
  return createHmac('sha256', runKey(env)).update(ordersText(runId, context)).digest('hex');
}

/** Whether `signature` was made by this person's key for exactly these orders. */
export function isSignedHere(runId: string, context: RunOrdersContext | null, signature: unknown, env: Env = process.env): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const expected = Buffer.from(signRunOrders(runId, context, env), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

/**
 * The orders of a run not made here, made strict: both approvals asked, no context file, no plan
 * approval taken as given, the run working in this workspace. `notice` is told one line per change.
 */
export function strictOrders<C extends RunOrdersContext>(context: C, workspaceRoot: string, notice: (line: string) => void): C {
  const w = context.workflow;
  const dropped = (what: string): void => notice(`Not taken from the run folder (it was not created by you on this machine): ${what}.`);
  if (w.approval?.plan !== 'always') dropped(`plan approval "${String(w.approval?.plan)}"; every plan is asked about`);
  if (w.approval?.diffs !== 'always') dropped(`diff approval "${String(w.approval?.diffs)}"; every diff is asked about`);
  for (const file of w.contextFiles ?? []) dropped(`the context file ${file}`);
  if (context.planApprovedByPerson === true) dropped('an approval of the plan; its known failures are not excused');
  if (w.workspaceRoot !== workspaceRoot) dropped(`the workspace ${w.workspaceRoot}; the run works in ${workspaceRoot}`);
  if (w.givenPlan?.baselineFile) dropped(`the baseline ${w.givenPlan.baselineFile}; failures it lists are not excused`);
  const { contextFiles: _contextFiles, givenPlan, ...rest } = w;
  const plan = givenPlan ? { givenPlan: { spec: givenPlan.spec, plan: givenPlan.plan } } : {};
  return {
    ...context,
    planApprovedByPerson: false,
    workflow: { ...rest, ...plan, workspaceRoot, approval: { plan: 'always', diffs: 'always' } },
  };
}
