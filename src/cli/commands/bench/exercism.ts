// The Exercism C# adapter: an exercise folder (.meta/config.json naming the solution and test files,
// a .csproj, the tests, .docs/instructions.md) as a bench task. Exercism marks all tests but the first
// `[Fact(Skip = "...")]`; the task asks for them to be unskipped in its copy, so every [Fact] of the
// test files must go from failing to passing. [Theory] cases are left out of fail_to_pass: their
// reported names carry the arguments, which the source does not spell the same way.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ConfigurationError, errorMessage } from '../../../core/errors';

/** At most this much of the instructions goes into the request. */
const MAX_INSTRUCTIONS = 6_000;

interface ExercismConfig {
  files?: { solution?: unknown; test?: unknown };
  blurb?: unknown;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
}

/** The [Fact] test names of a C# test file, as `dotnet test` reports them: Namespace.Class.Method. */
export function factNames(source: string): string[] {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  const namespace = /\bnamespace\s+([A-Za-z_][\w.]*)/.exec(text)?.[1];
  const names: string[] = [];
  const classPattern = /\bclass\s+([A-Za-z_]\w*)/g;
  const classes: Array<{ name: string; at: number }> = [];
  for (let m = classPattern.exec(text); m; m = classPattern.exec(text)) classes.push({ name: m[1], at: m.index });
  const factPattern = /\[\s*Fact\b[^\]]*\]\s*public\s+(?:async\s+)?[\w<>]+\s+([A-Za-z_]\w*)\s*\(/g;
  for (let m = factPattern.exec(text); m; m = factPattern.exec(text)) {
    const owner = classes.filter((c) => c.at < m!.index).at(-1);
    if (!owner) continue;
    names.push([namespace, owner.name, m[1]].filter(Boolean).join('.'));
  }
  return names;
}

/** `Skip = "..."` taken out of every [Fact]/[Theory] attribute, so the tests run. */
export function unskipped(source: string): string {
  return source.replace(/\[\s*(Fact|Theory)\s*\(\s*Skip\s*=\s*"(?:[^"\\]|\\.)*"\s*\)\s*\]/g, '[$1]');
}

async function readText(file: string, what: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigurationError(`Exercism exercise: ${what} ${file} could not be read: ${errorMessage(error)}`);
  }
}

/** The raw task (the task file's fields) for an Exercism C# exercise folder. */
export async function exercismTask(dir: string, id?: string): Promise<Record<string, unknown>> {
  let config: ExercismConfig;
  try {
    config = JSON.parse(await readText(path.join(dir, '.meta', 'config.json'), '.meta/config.json')) as ExercismConfig;
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    throw new ConfigurationError(`Exercism exercise ${dir}: .meta/config.json is not valid JSON: ${errorMessage(error)}`);
  }
  const solution = stringList(config.files?.solution);
  const tests = stringList(config.files?.test);
  if (tests.length === 0) throw new ConfigurationError(`Exercism exercise ${dir}: .meta/config.json names no test file (files.test).`);
  const entries = await fs.readdir(dir).catch(() => [] as string[]);
  if (!entries.some((name) => name.endsWith('.csproj')))
    throw new ConfigurationError(`Exercism exercise ${dir}: no .csproj in the folder.`);
  const facts: string[] = [];
  for (const test of tests) facts.push(...factNames(await readText(path.join(dir, test), 'the test file')));
  const instructions = await fs.readFile(path.join(dir, '.docs', 'instructions.md'), 'utf8').catch(() => '');
  const blurb = typeof config.blurb === 'string' ? config.blurb.trim() : '';
  const request = [
    blurb || `Solve the exercise in ${path.basename(dir)}.`,
    `Make every test in ${tests.join(', ')} pass by editing ${solution.join(', ') || 'the solution'}; do not change the tests.`,
    instructions ? `Instructions:\n${instructions.slice(0, MAX_INSTRUCTIONS)}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  return {
    id: id ?? path.basename(dir).replace(/[^A-Za-z0-9._-]/g, '-'),
    repo: dir,
    request,
    fail_to_pass: facts,
    unskip_tests: tests,
  };
}
