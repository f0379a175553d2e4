// The differential suite's corpus: edits a coder makes, on fresh copies of the fixtures (no obj/,
// never restored). Each edit has what the gate must do with it: `judged` (the engine compiles the
// project and its verdict counts) or `unknown` (the engine cannot know; the build decides). The
// build's verdict is never written here: the suite runs `dotnet build` and compares.
// Edits in one group are built together (each writes its own files), so a group holds edits that
// do not break each other's projects.

export interface CorpusEdit {
  name: string;
  /** Workspace-relative C# files and their staged text. */
  files: Record<string, string>;
  /** Staged build inputs (project files, Directory.Packages.props): a restore runs before the build. */
  buildInputs?: Record<string, string>;
  gate: 'judged' | 'unknown';
}

export interface CorpusWorkspace {
  name: string;
  /** A folder of test/fixtures, or files written from scratch. */
  fixture: string | Record<string, string>;
  target: string;
  groups: CorpusEdit[][];
}

const XUNIT_V2_THEORY = `namespace Units.Tests;

// No \`using Xunit;\`: the project's <Using Include="Xunit" /> (a global using) supplies it.
public class KelvinTests
{
    [Theory]
    [InlineData(0, 32)]
    [InlineData(100, 212)]
    public void CelsiusToFahrenheit(double c, double f) => Assert.Equal(f, Units.Temperature.CelsiusToFahrenheit(c), 3);
}
`;

const MULTI_TARGET = `namespace Units;

public static class Describe
{
#if NET8_0
    public static string Runtime() => "net8";
#else
    public static string Runtime() => typeof(System.Threading.Lock).Name;
#endif
}
`;

const GENERATED_REGEX = `using System.Text.RegularExpressions;

namespace Units;

public static partial class Patterns
{
    [GeneratedRegex("[0-9]+")]
    private static partial Regex Digits();

    public static bool HasDigits(string text) => Digits().IsMatch(text);
}
`;

const NUNIT_TEST = `namespace Geometry.NUnit4.Tests;

// NUnit.Framework comes from Directory.Build.targets' <Using>; versions from Directory.Packages.props (CPM).
public class SquareTests
{
    [TestCase(2, 4)]
    [TestCase(3, 9)]
    public void Square(int side, int area) => Assert.That(Shapes.RectangleArea(side, side), Is.EqualTo(area));
}
`;

const MSTEST4_TEST = `using Microsoft.VisualStudio.TestTools.UnitTesting;

namespace Ledger.MSTests;

[TestClass]
public sealed class DepositTests
{
    [TestMethod]
    [DataRow(5)]
    [DataRow(7)]
    public void Deposit_AddsToBalance(int amount)
    {
        var account = new Account();
        account.Deposit(amount);
        Assert.AreEqual((decimal)amount, account.Balance);
    }
}
`;

const XUNIT_V3_TEST = `using Xunit;

namespace Ledger.XunitTests;

public class FeeTheoryTests
{
    [Theory]
    [InlineData(100, 1)]
    public void Fee(int amount, int fee) => Assert.Equal((decimal)fee, Ledger.Account.Fee(amount));

    [Fact]
    public async Task Cancellation_IsAvailable() => await Task.Delay(0, TestContext.Current.CancellationToken);
}
`;

export const CORPUS: CorpusWorkspace[] = [
  {
    name: 'xunit v2, two target frameworks',
    fixture: 'xunit-multi',
    target: 'Units.slnx',
    groups: [
      [
        {
          name: 'new xunit v2 test file (Theory, InlineData, Assert; global using)',
          files: { 'tests/Units.Tests/KelvinTests.cs': XUNIT_V2_THEORY },
          gate: 'judged',
        },
        { name: 'multi-targeting with #if (net10.0;net8.0)', files: { 'src/Units/Describe.cs': MULTI_TARGET }, gate: 'judged' },
        { name: 'a source generator ([GeneratedRegex])', files: { 'src/Units/Patterns.cs': GENERATED_REGEX }, gate: 'judged' },
      ],
      [
        {
          name: 'CS0103 in a library file',
          files: {
            'src/Units/Broken.cs': 'namespace Units;\n\npublic static class Broken\n{\n    public static int Twice() => doubled * 2;\n}\n',
          },
          gate: 'judged',
        },
      ],
    ],
  },
  {
    name: 'NUnit with central package management',
    fixture: 'nunit',
    target: 'Geometry.sln',
    groups: [
      [
        {
          name: 'new NUnit test file (CPM, global using from Directory.Build.targets)',
          files: { 'tests/Geometry.NUnit4.Tests/SquareTests.cs': NUNIT_TEST },
          gate: 'judged',
        },
      ],
      [
        {
          name: 'CS0246 in a library file',
          files: {
            'src/Geometry/Broken.cs':
              'namespace Geometry;\n\npublic static class Broken\n{\n    public static Polygon Make() => null!;\n}\n',
          },
          gate: 'judged',
        },
      ],
      [
        {
          name: 'a package reference added by the coder (staged project file and Directory.Packages.props)',
          files: {
            'tests/Geometry.NUnit4.Tests/JsonTests.cs':
              'using Newtonsoft.Json;\n\nnamespace Geometry.NUnit4.Tests;\n\npublic class JsonTests\n{\n    [Test]\n    public void Serializes() => Assert.That(JsonConvert.SerializeObject(1), Is.EqualTo("1"));\n}\n',
          },
          buildInputs: {
            'Directory.Packages.props':
              '<Project>\n  <ItemGroup>\n    <PackageVersion Include="Microsoft.NET.Test.Sdk" Version="17.14.1" />\n    <PackageVersion Include="NUnit" Version="5.0.0" />\n    <PackageVersion Include="NUnit3TestAdapter" Version="6.3.1" />\n    <PackageVersion Include="Newtonsoft.Json" Version="13.0.3" />\n  </ItemGroup>\n</Project>\n',
            'tests/Geometry.NUnit4.Tests/Geometry.NUnit4.Tests.csproj':
              '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <IsPackable>false</IsPackable>\n  </PropertyGroup>\n  <ItemGroup>\n    <PackageReference Include="Microsoft.NET.Test.Sdk" />\n    <PackageReference Include="NUnit" VersionOverride="4.4.0" />\n    <PackageReference Include="NUnit3TestAdapter" VersionOverride="5.2.0" />\n    <PackageReference Include="Newtonsoft.Json" />\n  </ItemGroup>\n</Project>\n',
          },
          gate: 'unknown',
        },
      ],
    ],
  },
  {
    name: 'MSTest 4 and xunit v3 on Microsoft.Testing.Platform',
    fixture: 'mtp-ledger',
    target: 'Ledger.slnx',
    groups: [
      [
        { name: 'new MSTest 4 test file (MTP)', files: { 'tests/Ledger.MSTests/DepositTests.cs': MSTEST4_TEST }, gate: 'judged' },
        { name: 'new xunit v3 test file (MTP)', files: { 'tests/Ledger.XunitTests/FeeTheoryTests.cs': XUNIT_V3_TEST }, gate: 'judged' },
      ],
      [
        {
          name: 'CS1061 in a library file',
          files: {
            'src/Ledger/Statement.cs':
              'namespace Ledger;\n\npublic static class Statement\n{\n    public static decimal Of(Account account) => account.Balanse;\n}\n',
          },
          gate: 'judged',
        },
      ],
    ],
  },
  {
    name: 'a Razor class library',
    fixture: {
      'Components.slnx': '<Solution>\n  <Project Path="Components/Components.csproj" />\n</Solution>\n',
      'Components/Components.csproj':
        '<Project Sdk="Microsoft.NET.Sdk.Razor">\n  <PropertyGroup>\n    <TargetFramework>net10.0</TargetFramework>\n    <ImplicitUsings>enable</ImplicitUsings>\n    <Nullable>enable</Nullable>\n  </PropertyGroup>\n  <ItemGroup>\n    <FrameworkReference Include="Microsoft.AspNetCore.App" />\n  </ItemGroup>\n</Project>\n',
      'Components/Greeting.razor': '<p>Hello, @Name!</p>\n\n@code {\n    [Parameter] public string Name { get; set; } = "";\n}\n',
    },
    target: 'Components.slnx',
    groups: [
      [
        {
          name: 'C# that uses a Razor component (its class exists only once Razor generates it)',
          files: {
            'Components/Greetings.cs':
              'namespace Components;\n\npublic static class Greetings\n{\n    public static Type Component() => typeof(Greeting);\n}\n',
          },
          gate: 'unknown',
        },
      ],
    ],
  },
];
