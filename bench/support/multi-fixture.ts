// The 12-project fixture the benches share: `test/fixtures/multi` (TextKit, Reporting and their test
// projects) grown by four generated libraries over TextKit, each with a test project, all in Multi.sln.

import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export const EXTRA_LIBRARIES = 4;
const FILES_PER_LIBRARY = 8;
const TESTS_PER_LIBRARY = 12;
const FIXTURE = path.join(__dirname, '..', '..', 'test', 'fixtures', 'multi');

const libraryCsproj = `<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net10.0</TargetFramework>
    <ImplicitUsings>enable</ImplicitUsings>
    <Nullable>enable</Nullable>
  </PropertyGroup>
  <ItemGroup>
    <ProjectReference Include="..\\TextKit\\TextKit.csproj" />
  </ItemGroup>
</Project>
`;

function testCsproj(library: string): string {
  return readFileSync(path.join(FIXTURE, 'tests', 'TextKit.Tests', 'TextKit.Tests.csproj'), 'utf8').replace(/TextKit/g, library);
}

function sourceFile(library: string, index: number): string {
  const methods = Array.from(
    { length: 6 },
    (_, method) => `
    public static string Format${method}(IEnumerable<string> items, int width)
    {
        var lines = items.Select((item, position) => $"{position + ${method}}. {TextKit.Slug.From(item)}").ToList();
        return string.Join('\\n', lines.Select(line => TextKit.Padding.Center(line, width)));
    }`,
  ).join('\n');
  return `namespace ${library};\n\npublic static class Part${index}\n{${methods}\n}\n`;
}

function testFile(library: string): string {
  const tests = Array.from(
    { length: TESTS_PER_LIBRARY },
    (_, test) => `
    [Fact]
    public void Format_${test}() => Assert.Contains("hello-world", Part${test % FILES_PER_LIBRARY}.Format${test % 6}(new[] { "Hello World" }, 40));`,
  ).join('\n');
  return `namespace ${library}.Tests;\n\npublic class PartTests\n{${tests}\n}\n`;
}

/**
 * Copies the fixture into `root` and grows it; `slnAdd` adds the new projects to Multi.sln (with
 * `dotnet sln add`, which writes the configuration entries a .sln needs). Returns the libraries' names.
 */
export async function growMultiFixture(root: string, slnAdd: (projects: string[]) => Promise<void>): Promise<string[]> {
  cpSync(FIXTURE, root, { recursive: true, filter: (source) => !/[\\/](bin|obj)$/.test(source) });
  const added: string[] = [];
  const libraries: string[] = [];
  for (let index = 1; index <= EXTRA_LIBRARIES; index += 1) {
    const library = `Feature${index}`;
    libraries.push(library);
    mkdirSync(path.join(root, 'src', library), { recursive: true });
    mkdirSync(path.join(root, 'tests', `${library}.Tests`), { recursive: true });
    writeFileSync(path.join(root, 'src', library, `${library}.csproj`), libraryCsproj);
    for (let file = 0; file < FILES_PER_LIBRARY; file += 1)
      writeFileSync(path.join(root, 'src', library, `Part${file}.cs`), sourceFile(library, file));
    writeFileSync(path.join(root, 'tests', `${library}.Tests`, `${library}.Tests.csproj`), testCsproj(library));
    writeFileSync(path.join(root, 'tests', `${library}.Tests`, 'PartTests.cs'), testFile(library));
    added.push(`src/${library}/${library}.csproj`, `tests/${library}.Tests/${library}.Tests.csproj`);
  }
  await slnAdd(added);
  return libraries;
}
