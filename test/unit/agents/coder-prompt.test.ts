import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './agent-harness';

describe('the coder prompt', () => {
  const prompt = readFileSync(path.join(REPO_ROOT, 'agents/coder/prompt.md'), 'utf8');

  it('has a .NET section with the rules a real model gets wrong', () => {
    const section = prompt.slice(prompt.indexOf('## .NET projects'));
    assert.ok(prompt.includes('## .NET projects'));
    assert.match(
      section,
      /SDK-style projects compile every `\.cs` file under their folder: never add `<Compile Include>`;\n {2}a new class \(a new test class too\) needs no project edit\./,
    );
    assert.match(section, /framework the test project already uses/);
    assert.match(section, /Add no `PackageReference` unless the plan says so/);
    assert.match(section, /`Directory\.Packages\.props`/);
    assert.match(section, /`<Nullable>enable<\/Nullable>` and `TreatWarningsAsErrors`/);
  });

  it('describes check_code honestly and the way to say BLOCKED', () => {
    assert.doesNotMatch(prompt, /runs the same check/);
    assert.match(
      prompt,
      /It runs the C# compiler only: no analyzers, no `\.csproj` edits, no tests,\n {2}so a clean check is not a passing build\./,
    );
    assert.match(prompt, /a summary that starts with `BLOCKED:`/);
    assert.match(prompt, /`create` makes new files only: it refuses a file that exists/);
  });
});
