// Whether a project's restore is done, as `dotnet build` will see it: obj/project.assets.json
// exists, is newer than every input of the restore (the project file, Directory.Build.props/
// .targets, Directory.Packages.props, global.json, nuget.config in its folder or any folder above),
// and NuGet logged no error in it. A project loaded before that has missing package references:
// its compile errors are the engine's, not the code's. The fingerprint (times and sizes of all of
// it) tells the engine when a restore ran or an input changed since the load, so it reloads.
using System.Text;
using System.Text.Json;

namespace Ironbees.Roslyn;

internal static class RestoreState
{
    private static readonly string[] InputNames =
    [
        "Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props", "global.json", "nuget.config",
    ];

    /** The names looked for in each folder: MSBuild's are exact; NuGet takes these three spellings. */
    private static readonly string[] InputFiles =
    [
        "Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props", "global.json", "nuget.config", "NuGet.config", "NuGet.Config",
    ];

    /** Null when restored; otherwise why not, in words for the person and the model. */
    public static string? NotRestored(string projectFile)
    {
        var assets = AssetsFile(projectFile);
        if (!File.Exists(assets)) return "its packages are not restored yet (no obj/project.assets.json)";
        var written = File.GetLastWriteTimeUtc(assets);
        var newer = Inputs(projectFile).FirstOrDefault(input => File.GetLastWriteTimeUtc(input) > written);
        if (newer is not null) return $"{Path.GetFileName(newer)} changed after its last restore";
        return RestoreErrors(assets);
    }

    /** Every restore input and assets file of these projects with its time and size: changes when either moves. */
    public static string Fingerprint(IEnumerable<string> projectFiles)
    {
        var text = new StringBuilder();
        var files = projectFiles.SelectMany(p => Inputs(p).Append(AssetsFile(p))).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal);
        foreach (var file in files)
        {
            var info = new FileInfo(file);
            text.Append(file).Append('|').Append(info.Exists ? $"{info.LastWriteTimeUtc.Ticks}:{info.Length}" : "-").Append('\n');
        }
        return text.ToString();
    }

    /**
     * True when the assets file or an input was written after `since`: what the load read may be
     * from before that write. (File systems with whole-second times can hide a write in the first
     * second; the next restore's fingerprint change still reloads.)
     */
    public static bool ChangedSince(string projectFile, DateTime since) =>
        Inputs(projectFile).Append(AssetsFile(projectFile)).Any(f => File.Exists(f) && File.GetLastWriteTimeUtc(f) > since);

    /** True when `file` (absolute) is a restore input that can change `projectFile`'s restore. */
    public static bool IsInputOf(string file, string projectFile)
    {
        if (string.Equals(file, projectFile, StringComparison.Ordinal)) return true;
        if (!InputNames.Any(name => string.Equals(Path.GetFileName(file), name, StringComparison.OrdinalIgnoreCase))) return false;
        var dir = Path.GetDirectoryName(file)! + Path.DirectorySeparatorChar;
        return projectFile.StartsWith(dir, StringComparison.Ordinal);
    }

    public static string AssetsFile(string projectFile) => Path.Combine(Path.GetDirectoryName(projectFile)!, "obj", "project.assets.json");

    /** The project file and the restore inputs found in its folder and every folder above it. */
    public static IEnumerable<string> Inputs(string projectFile)
    {
        yield return projectFile;
        // Looked up by name, not listed: a folder above the workspace (the temp folder) may hold thousands of files.
        var seen = new HashSet<string>(StringComparer.Ordinal);
        for (var dir = Path.GetDirectoryName(projectFile); !string.IsNullOrEmpty(dir); dir = Path.GetDirectoryName(dir))
        {
            foreach (var name in InputFiles)
            {
                var file = Path.Combine(dir, name);
                // A case-insensitive file system finds one nuget.config under all three spellings.
                if (File.Exists(file) && seen.Add(file.ToLowerInvariant())) yield return file;
            }
        }
    }

    /** NuGet's own error messages from the assets file's log (a failed restore still writes one). */
    private static string? RestoreErrors(string assets)
    {
        try
        {
            using var stream = File.OpenRead(assets);
            using var doc = JsonDocument.Parse(stream);
            if (!doc.RootElement.TryGetProperty("logs", out var logs) || logs.ValueKind != JsonValueKind.Array) return null;
            var errors = logs.EnumerateArray()
                .Where(l => l.TryGetProperty("level", out var level) && level.GetString() == "Error")
                .Select(l => $"{(l.TryGetProperty("code", out var c) ? c.GetString() : "NU")}: {(l.TryGetProperty("message", out var m) ? m.GetString() : "")}")
                .Take(2)
                .ToList();
            return errors.Count == 0 ? null : $"its restore failed ({string.Join("; ", errors)})";
        }
        catch (Exception e) when (e is IOException or JsonException or UnauthorizedAccessException)
        {
            return $"its obj/project.assets.json could not be read ({e.Message})";
        }
    }
}
