// The Exercism C# adapter: an exercise folder becomes a task (its [Fact] names, the request), the
// Skip attributes are taken out, and a folder that is not an exercise is refused naming what is missing.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { exercismTask, factNames, unskipped } from '../../../src/cli/commands/bench/exercism';
import { readTaskFile } from '../../../src/cli/commands/bench/task-file';

const TESTS = `using Xunit;

public class LeapTests
{
    [Fact]
    public void Year_not_divisible_by_4_in_common_year()
    {
        Assert.False(Leap.IsLeapYear(2015));
    }

    [Fact(Skip = "Remove this Skip property to run this test")]
    public void Year_divisible_by_4_not_divisible_by_100_in_leap_year() => Assert.True(Leap.IsLeapYear(1996));

    // [Fact] public void Commented_out() {}

    [Theory(Skip = "Remove this Skip property to run this test")]
    [InlineData(2000)]
    public void Theory_case(int year) => Assert.True(Leap.IsLeapYear(year));
}
`;

describe('bench Exercism adapter', () => {
  let dir: string;
  let exercise: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ironbees-exercism-'));
    exercise = path.join(dir, 'leap');
    mkdirSync(path.join(exercise, '.meta'), { recursive: true });
    mkdirSync(path.join(exercise, '.docs'));
    writeFileSync(
      path.join(exercise, '.meta', 'config.json'),
      JSON.stringify({
        files: { solution: ['Leap.cs'], test: ['LeapTests.cs'], example: ['.meta/Example.cs'] },
        blurb: 'Determine whether a year is a leap year.',
      }),
    );
    writeFileSync(path.join(exercise, '.docs', 'instructions.md'), 'A leap year occurs on every year divisible by 4.');
    writeFileSync(path.join(exercise, 'Leap.csproj'), '<Project Sdk="Microsoft.NET.Sdk"></Project>');
    writeFileSync(path.join(exercise, 'LeapTests.cs'), TESTS);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names the [Fact] tests as dotnet test reports them (namespace, class, method), skipped or not, never a theory or a comment', () => {
    assert.deepEqual(factNames(TESTS), [
      'LeapTests.Year_not_divisible_by_4_in_common_year',
      'LeapTests.Year_divisible_by_4_not_divisible_by_100_in_leap_year',
    ]);
    assert.deepEqual(factNames('namespace Ns.Sub;\npublic class T { [Fact] public async Task A() {} }'), ['Ns.Sub.T.A']);
  });

  it('takes Skip out of [Fact] and [Theory] and leaves the rest as it is', () => {
    const out = unskipped(TESTS);
    assert.ok(!out.includes('Skip'), out);
    assert.equal(out.match(/\[Fact\]/g)?.length, 3);
    assert.ok(out.includes('[Theory]\n    [InlineData(2000)]'));
  });

  it('turns the exercise folder into a task through a task file entry', async () => {
    const raw = await exercismTask(exercise);
    assert.equal(
      raw.request,
      'Determine whether a year is a leap year.\n\nMake every test in LeapTests.cs pass by editing Leap.cs; do not change the tests.\n\nInstructions:\nA leap year occurs on every year divisible by 4.',
    );
    writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify({ tasks: [{ exercism: 'leap' }] }));
    const [task] = await readTaskFile(path.join(dir, 'tasks.json'));
    assert.deepEqual(
      { ...task, request: '' },
      {
        id: 'leap',
        repo: exercise,
        request: '',
        failToPass: ['LeapTests.Year_not_divisible_by_4_in_common_year', 'LeapTests.Year_divisible_by_4_not_divisible_by_100_in_leap_year'],
        passToPass: [],
        unskipTests: ['LeapTests.cs'],
      },
    );
  });

  it('refuses a folder without .meta/config.json or without a project, saying which', async () => {
    await assert.rejects(exercismTask(path.join(dir, 'nothing')), /Exercism exercise: \.meta\/config\.json .* could not be read/);
    const noProject = path.join(dir, 'noproj');
    mkdirSync(path.join(noProject, '.meta'), { recursive: true });
    writeFileSync(path.join(noProject, '.meta', 'config.json'), JSON.stringify({ files: { test: ['T.cs'] } }));
    await assert.rejects(exercismTask(noProject), { message: `Exercism exercise ${noProject}: no .csproj in the folder.` });
  });
});
