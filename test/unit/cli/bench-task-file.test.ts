// The bench task file: what a good file becomes, and that a bad one is refused naming the task and field.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { parseTaskFile } from '../../../src/cli/commands/bench/task-file';
import { parseCliArgs } from '../../../src/cli/args';

const BASE = path.resolve('/bench');

function refused(source: string, fileName: string, message: string): void {
  assert.throws(
    () => parseTaskFile(source, fileName, BASE),
    (error: Error) => {
      assert.equal(error.message, message);
      return true;
    },
  );
}

describe('bench task file', () => {
  it('reads a YAML task list with a relative repo, resolved against the file folder', () => {
    const yaml = [
      'tasks:',
      '  - id: calc-1',
      '    repo: ./calculator',
      '    request: Fix Divide',
      '    fail_to_pass: [Calc.Tests.Divide]',
      '    pass_to_pass: [Calc.Tests.Add, Calc.Tests.Sub]',
    ].join('\n');
    assert.deepEqual(parseTaskFile(yaml, 'tasks.yaml', BASE), [
      {
        id: 'calc-1',
        repo: path.join(BASE, 'calculator'),
        request: 'Fix Divide',
        failToPass: ['Calc.Tests.Divide'],
        passToPass: ['Calc.Tests.Add', 'Calc.Tests.Sub'],
      },
    ]);
  });

  it('reads a bare JSON list with a git URL and commit; pass_to_pass may be left out', () => {
    const json = JSON.stringify([
      { id: 'g', repo_url: 'https://example.invalid/r.git', commit: 'abcdef1', request: 'R', fail_to_pass: ['T'] },
    ]);
    assert.deepEqual(parseTaskFile(json, 'tasks.json', BASE), [
      { id: 'g', repoUrl: 'https://example.invalid/r.git', commit: 'abcdef1', request: 'R', failToPass: ['T'], passToPass: [] },
    ]);
  });

  it('names the task and the field that is wrong', () => {
    refused('{"tasks": []}', 'tasks.json', 'Bench task file: tasks.json: "tasks" must be a non-empty list.');
    refused(
      '[{"repo": "a", "request": "r", "fail_to_pass": ["T"]}]',
      't.json',
      'Bench task file: task 1: "id" must be a non-empty string.',
    );
    refused(
      '[{"id": "a b", "repo": "a", "request": "r", "fail_to_pass": ["T"]}]',
      't.json',
      'Bench task file: task 1: "id" may hold letters, digits, ".", "_" and "-" only (got "a b").',
    );
    refused(
      '[{"id": "x", "repo": "a", "fail_to_pass": ["T"]}]',
      't.json',
      'Bench task file: task "x": "request" must be a non-empty string.',
    );
    refused(
      '[{"id": "x", "repo": "a", "request": "r", "fail_to_pass": []}]',
      't.json',
      'Bench task file: task "x": "fail_to_pass" must name at least one test.',
    );
    refused(
      '[{"id": "x", "repo": "a", "request": "r", "fail_to_pass": ["T"], "pass_to_pass": "T2"}]',
      't.json',
      'Bench task file: task "x": "pass_to_pass" must be a list of test names.',
    );
    refused(
      '[{"id": "x", "request": "r", "fail_to_pass": ["T"]}]',
      't.json',
      'Bench task file: task "x": "repo" must be a non-empty string.',
    );
    refused(
      '[{"id": "x", "repo_url": "u", "commit": "main", "request": "r", "fail_to_pass": ["T"]}]',
      't.json',
      'Bench task file: task "x": "commit" must be a commit hash (got "main").',
    );
    refused(
      '[{"id": "x", "repo_url": "--upload-pack=x", "commit": "abcdef1", "request": "r", "fail_to_pass": ["T"]}]',
      't.json',
      'Bench task file: task "x": "repo_url" must not start with "-".',
    );
    refused(
      '[{"id": "x", "repo": "a", "request": "r", "fail_to_pass": ["T"]}, {"id": "x", "repo": "b", "request": "r", "fail_to_pass": ["T"]}]',
      't.json',
      'Bench task file: task "x": "id" is used by more than one task.',
    );
  });

  it('refuses unskip_tests that leave the repository', () => {
    refused(
      '[{"id": "x", "repo": "a", "request": "r", "fail_to_pass": ["T"], "unskip_tests": ["../outside.cs"]}]',
      't.json',
      'Bench task file: task "x": "unskip_tests" must name files inside the repository.',
    );
  });

  it('says a file that is not JSON could not be read, naming it', () => {
    assert.throws(() => parseTaskFile('{nope', 'tasks.json', BASE), /^ConfigurationError: Bench task file tasks\.json could not be read: /);
  });
});

describe('bench arguments', () => {
  it('resolves the task file and --out against the folder, with the per-task cost cap', () => {
    assert.deepEqual(parseCliArgs(['bench', 'tasks.yaml', '--out', 'rep', '--demo', '--max-cost', '0.5'], '/w'), {
      command: 'bench',
      taskFile: path.resolve('/w', 'tasks.yaml'),
      out: path.resolve('/w', 'rep'),
      demo: true,
      maxCostUsd: 0.5,
      maxIterations: 5,
      sandbox: 'auto',
      keep: false,
    });
  });

  it('refuses a cost cap that is not a positive number', () => {
    assert.throws(() => parseCliArgs(['bench', 't.json', '--max-cost', '0'], '/w'), /--max-cost must be a positive number \(got "0"\)/);
  });
});
