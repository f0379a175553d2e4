// The bench task file (SWE-bench style, JSON or YAML): each task names a repository (a local folder,
// or a git URL with a commit), the request, the tests that must go from failing to passing and the
// tests that must keep passing. Read from the user's disk, so every field is checked and a bad one
// is named with its task.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigurationError, errorMessage } from '../../../core/errors';
import { exercismTask } from './exercism';

export interface BenchTask {
  id: string;
  /** An absolute local folder (resolved against the task file's folder), or absent when `repoUrl` is given. */
  repo?: string;
  /** A git URL cloned for the task, at `commit`. */
  repoUrl?: string;
  commit?: string;
  request: string;
  /** Tests that fail before the run and must pass after it (names as `dotnet test` reports them). */
  failToPass: string[];
  /** Tests that must still pass after the run. */
  passToPass: string[];
  /** Test files (repository-relative) whose `Skip = "..."` attributes are taken out in the task's copy (Exercism). */
  unskipTests?: string[];
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;

function fail(where: string, message: string): never {
  throw new ConfigurationError(`Bench task file: ${where}: ${message}`);
}

function text(value: unknown, where: string, field: string): string {
  if (typeof value !== 'string' || !value.trim()) fail(where, `"${field}" must be a non-empty string.`);
  return value.trim();
}

function names(value: unknown, where: string, field: string, required: boolean): string[] {
  if (value === undefined && !required) return [];
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string' || !name.trim())) {
    fail(where, `"${field}" must be a list of test names.`);
  }
  if (required && value.length === 0) fail(where, `"${field}" must name at least one test.`);
  return (value as string[]).map((name) => name.trim());
}

/** One task, checked; `base` resolves a relative `repo`. */
export function parseTask(raw: unknown, index: number, base: string): BenchTask {
  let where = `task ${index + 1}`;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail(where, 'must be an object.');
  const task = raw as Record<string, unknown>;
  const id = text(task.id, where, 'id');
  if (!ID.test(id)) fail(where, `"id" may hold letters, digits, ".", "_" and "-" only (got "${id}").`);
  where = `task "${id}"`;
  const request = text(task.request, where, 'request');
  const failToPass = names(task.fail_to_pass, where, 'fail_to_pass', true);
  const passToPass = names(task.pass_to_pass, where, 'pass_to_pass', false);
  const unskip = names(task.unskip_tests, where, 'unskip_tests', false);
  if (unskip.some((file) => path.isAbsolute(file) || file.split(/[\\/]/).includes('..'))) {
    fail(where, '"unskip_tests" must name files inside the repository.');
  }
  const extra = unskip.length ? { unskipTests: unskip } : {};
  if (task.repo !== undefined && task.repo_url !== undefined) fail(where, 'give "repo" (a folder) or "repo_url" (git), not both.');
  if (task.repo_url !== undefined) {
    const repoUrl = text(task.repo_url, where, 'repo_url');
    // Passed to git as an argument: an option-looking URL could make git run a command.
    if (repoUrl.startsWith('-')) fail(where, '"repo_url" must not start with "-".');
    const commit = text(task.commit, where, 'commit');
    if (!/^[0-9a-fA-F]{7,40}$/.test(commit)) fail(where, `"commit" must be a commit hash (got "${commit}").`);
    return { id, repoUrl, commit, request, failToPass, passToPass, ...extra };
  }
  const repo = path.resolve(base, text(task.repo, where, 'repo'));
  return { id, repo, request, failToPass, passToPass, ...extra };
}

/** The tasks of a file's text: `{ tasks: [...] }` or a bare list. Ids must be unique. */
export function parseTaskFile(source: string, fileName: string, base: string): BenchTask[] {
  return parseTaskList(rawTaskList(source, fileName), base);
}

function rawTaskList(source: string, fileName: string): unknown[] {
  let data: unknown;
  try {
    data = /\.ya?ml$/i.test(fileName) ? parseYaml(source) : JSON.parse(source);
  } catch (error) {
    throw new ConfigurationError(`Bench task file ${fileName} could not be read: ${errorMessage(error)}`);
  }
  const list = Array.isArray(data) ? data : (data as { tasks?: unknown } | null)?.tasks;
  if (!Array.isArray(list) || list.length === 0) fail(fileName, '"tasks" must be a non-empty list.');
  return list;
}

function parseTaskList(list: unknown[], base: string): BenchTask[] {
  const tasks = list.map((raw, index) => parseTask(raw, index, base));
  const seen = new Set<string>();
  for (const task of tasks) {
    if (seen.has(task.id)) fail(`task "${task.id}"`, '"id" is used by more than one task.');
    seen.add(task.id);
  }
  return tasks;
}

export async function readTaskFile(file: string): Promise<BenchTask[]> {
  const source = await fs.readFile(file, 'utf8').catch((error: unknown) => {
    throw new ConfigurationError(`Bench task file ${file} could not be read: ${errorMessage(error)}`);
  });
  const base = path.dirname(file);
  const list = rawTaskList(source, path.basename(file));
  // An entry `{ exercism: FOLDER, id? }` is an Exercism C# exercise, turned into a task here.
  const expanded = await Promise.all(
    list.map(async (raw) => {
      const entry = raw as { exercism?: unknown; id?: unknown } | null;
      if (typeof entry?.exercism !== 'string') return raw;
      return exercismTask(path.resolve(base, entry.exercism), typeof entry.id === 'string' ? entry.id : undefined);
    }),
  );
  return parseTaskList(expanded, base);
}
