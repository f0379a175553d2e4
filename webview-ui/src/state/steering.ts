// The steering trail, read from the state's metadata: each plan version with the feedback that made
// it ("unchanged" when the planner returned the same plan), each proposal of the coder with its own
// summary and what became of it, and the person's guidance at each escalation. Metadata is plain
// JSON from disk, so every field is checked rather than trusted.

import type { CodingState } from '../../../src/core/model';

export interface PlanVersionView {
  version: number;
  summary: string;
  stepCount: number;
  feedback: string | null;
  unchanged: boolean;
  by: 'planner' | 'person';
  /** Steps this version added and dropped against the one before (empty for the first). */
  added: string[];
  removed: string[];
}

export interface AttemptView {
  iteration: number;
  outcome: 'applied' | 'rejected' | 'not applied';
  files: string[];
  summary: string | null;
  feedback: string | null;
}

export interface GuidanceView {
  iteration: number;
  guidance: string;
}

export interface SteeringTrail {
  plans: PlanVersionView[];
  attempts: AttemptView[];
  guidance: GuidanceView[];
}

/** The trail, or null while there is nothing to tell (a single plan, no proposal, no guidance). */
export function steeringTrail(run: CodingState): SteeringTrail | null {
  const plans = records(run.metadata.planVersions).flatMap(planVersion);
  const summaries = iterationSummaries(run.metadata.iterations);
  const attempts = records(run.metadata.attempts).flatMap((a) => attempt(a, summaries));
  const guidance = records(run.metadata.guidanceGiven).flatMap(guidanceOf);
  if (plans.length <= 1 && attempts.length === 0 && guidance.length === 0) return null;
  return { plans, attempts, guidance };
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null) : [];
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function planVersion(r: Record<string, unknown>): PlanVersionView[] {
  const version = num(r.version);
  if (version === null) return [];
  const changes = records([r.changes])[0];
  return [
    {
      version,
      summary: str(r.summary) ?? '',
      stepCount: num(r.stepCount) ?? 0,
      feedback: str(r.feedback),
      unchanged: r.unchanged === true,
      by: r.by === 'person' ? 'person' : 'planner',
      added: strings(changes?.added),
      removed: strings(changes?.removed),
    },
  ];
}

/** Runs persisted before attempts had a summary: the iteration record's summary stands in for applied ones. */
function iterationSummaries(value: unknown): Map<number, string> {
  const map = new Map<number, string>();
  for (const r of records(value)) {
    const iteration = num(r.iteration);
    const summary = str(r.summary);
    if (iteration !== null && summary !== null) map.set(iteration, summary);
  }
  return map;
}

function attempt(r: Record<string, unknown>, summaries: Map<number, string>): AttemptView[] {
  const iteration = num(r.iteration);
  if (iteration === null || (r.outcome !== 'applied' && r.outcome !== 'rejected' && r.outcome !== 'not applied')) return [];
  const files = Array.isArray(r.files) ? r.files.filter((f): f is string => typeof f === 'string') : [];
  const summary = str(r.summary) ?? (r.outcome === 'applied' ? (summaries.get(iteration) ?? null) : null);
  return [{ iteration, outcome: r.outcome, files, summary, feedback: str(r.feedback) }];
}

function guidanceOf(r: Record<string, unknown>): GuidanceView[] {
  const iteration = num(r.iteration);
  const guidance = str(r.guidance);
  return iteration === null || guidance === null ? [] : [{ iteration, guidance }];
}
