// The bench report: one JSON document, and the same figures as Markdown and as a small HTML page
// with no external assets. Task text comes from the task file and test names from the repository,
// so the HTML escapes everything it shows.

import type { TaskFigures } from './run-figures';

export interface BenchTaskReport extends TaskFigures {
  id: string;
  request: string;
}

export interface BenchReport {
  /** The bench's own schema version: a field is only ever added. */
  schemaVersion: 1;
  startedAt: string;
  model: string;
  tasks: BenchTaskReport[];
  totals: {
    tasks: number;
    passed: number;
    passRate: number;
    costUsd: number | null;
    wallMs: number;
    tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
  };
}

export function totalsOf(tasks: readonly BenchTaskReport[]): BenchReport['totals'] {
  const passed = tasks.filter((task) => task.pass).length;
  const costs = tasks.map((task) => task.costUsd);
  return {
    tasks: tasks.length,
    passed,
    passRate: tasks.length ? passed / tasks.length : 0,
    // One task of unknown cost makes the total unknown.
    costUsd: costs.some((cost) => cost === null) ? null : costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0),
    wallMs: tasks.reduce((sum, task) => sum + task.wallMs, 0),
    tokens: tasks.reduce(
      (sum, task) => ({
        input: sum.input + task.tokens.input,
        output: sum.output + task.tokens.output,
        cacheRead: sum.cacheRead + task.tokens.cacheRead,
        cacheWrite: sum.cacheWrite + task.tokens.cacheWrite,
      }),
      { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    ),
  };
}

const na = (value: number | null, show: (v: number) => string = String): string => (value === null ? 'n/a' : show(value));
const usd = (value: number): string => `$${value.toFixed(4)}`;
const pct = (value: number): string => `${Math.round(value * 100)}%`;
const secs = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

/** The rows of the per-task table, as plain text cells (rendered as Markdown or HTML). */
function taskRows(task: BenchTaskReport): Array<[string, string]> {
  const tests = (list: TaskFigures['failToPass']): string =>
    list.length ? list.map((t) => `${t.name} ${t.ok ? 'ok' : 'FAIL'}`).join('; ') : 'none';
  const kinds = task.edits.strReplaceFailures.map((k) => `${k.kind} ${k.count}`).join(', ') || '0';
  return [
    ['pass', task.pass ? 'yes' : 'no'],
    ['run', `${task.runId ?? 'n/a'} (${task.finalNode ?? 'n/a'})`],
    ['fail to pass', tests(task.failToPass)],
    ['pass to pass', tests(task.passToPass)],
    ['iterations to green', na(task.iterationsToGreen)],
    ['iterations', na(task.iterations)],
    [
      'protocol',
      `${task.protocol.turns} turns, ${task.protocol.plainTextTurns} plain-text, ${task.protocol.malformedTurns} malformed, ` +
        `${task.protocol.maxTokensStops} max_tokens stops, ${task.protocol.budgetExhaustions} budget exhaustions, ${task.protocol.stuckStops} stuck stops`,
    ],
    ['edits', `str_replace failures: ${kinds}; refused creates: ${task.edits.refusedCreates}`],
    [
      'compile loop',
      `check_code ${task.compile.checkCodeCalls} (${task.compile.checkCodeFailures} failed); pre-review checks ${task.compile.preReviewChecks} (${task.compile.preReviewFailures} failed)`,
    ],
    [
      'integrity',
      `test files touched: ${task.integrity.testFilesTouched.join(', ') || 'none'}; skips added: ${na(task.integrity.skipsAdded)}`,
    ],
    [
      'tokens',
      `${task.tokens.input} in, ${task.tokens.output} out, ${task.tokens.cacheRead} cache read, ${task.tokens.cacheWrite} cache write; cache share ${na(task.cacheShare, pct)}`,
    ],
    ['cost', na(task.costUsd, usd)],
    ['wall time', secs(task.wallMs)],
    ...(task.note ? ([['note', task.note]] as Array<[string, string]>) : []),
  ];
}

function totalsLine(report: BenchReport): string {
  const t = report.totals;
  return (
    `${t.passed}/${t.tasks} passed (${pct(t.passRate)}) · cost ${na(t.costUsd, usd)} · wall ${secs(t.wallMs)} · ` +
    `tokens ${t.tokens.input} in, ${t.tokens.output} out, ${t.tokens.cacheRead} cache read`
  );
}

/** Markdown table cells: a pipe or a line break would end the cell. */
function mdCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

export function renderMarkdown(report: BenchReport): string {
  const lines = [`# ironbees bench`, '', `Model: ${report.model} · started ${report.startedAt}`, '', `**${totalsLine(report)}**`, ''];
  for (const task of report.tasks) {
    lines.push(`## ${task.id}`, '', `> ${mdCell(task.request)}`, '', '| figure | value |', '| --- | --- |');
    for (const [name, value] of taskRows(task)) lines.push(`| ${name} | ${mdCell(value)} |`);
    lines.push('');
  }
  return lines.join('\n');
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const STYLE =
  'body{font-family:system-ui,sans-serif;margin:2em;max-width:60em}table{border-collapse:collapse;margin-bottom:1.5em}' +
  'td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}.pass{color:#060}.fail{color:#a00}';

export function renderHtml(report: BenchReport): string {
  const sections = report.tasks.map((task) => {
    const rows = taskRows(task)
      .map(([name, value]) => `<tr><th>${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`)
      .join('');
    const verdict = task.pass ? '<span class="pass">pass</span>' : '<span class="fail">fail</span>';
    return `<h2>${escapeHtml(task.id)} · ${verdict}</h2><blockquote>${escapeHtml(task.request)}</blockquote><table>${rows}</table>`;
  });
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8"><title>ironbees bench</title>',
    `<style>${STYLE}</style></head><body>`,
    '<h1>ironbees bench</h1>',
    `<p>Model: ${escapeHtml(report.model)} · started ${escapeHtml(report.startedAt)}</p>`,
    `<p><strong>${escapeHtml(totalsLine(report))}</strong></p>`,
    ...sections,
    '</body></html>',
    '',
  ].join('\n');
}
