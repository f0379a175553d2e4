// The projects the engine cannot judge, and why: where its compile would differ from `dotnet build`,
// "check" answers "unknown" for the project and leaves it to the build instead of reporting errors
// that are the engine's own. Decided per project at load (restore not done or failed, a load
// diagnostic naming it, Razor/Blazor or XAML sources whose code only a build generates), and
// carried to every project that references one of those (its compile sees that project's).
using Microsoft.CodeAnalysis;

namespace Ironbees.Roslyn;

internal static class Blind
{
    /** Sources the compiler never sees as such: a build turns them into C# the engine does not have. */
    private static readonly string[] GeneratedFrom = [".razor", ".cshtml", ".xaml"];

    private static readonly string[] MarkupProperties = ["<UseWPF>true", "<UseWindowsForms>true", "<UseMaui>true", "Microsoft.NET.Sdk.Razor", "Microsoft.NET.Sdk.BlazorWebAssembly"];

    /** `loadDiagnostics`: what MSBuildWorkspace reported; `failures` the subset that were failures. */
    public static Dictionary<ProjectId, string> AtLoad(Solution solution, IReadOnlyList<string> loadDiagnostics, IReadOnlyList<string> failures, DateTime loadStartedUtc)
    {
        var reasons = new Dictionary<ProjectId, string>();
        // A failure that names no project may be about any of them.
        var unattributed = failures.FirstOrDefault(d => !solution.Projects.Any(p => p.FilePath is not null && d.Contains(p.FilePath, StringComparison.Ordinal)));
        var byFile = new Dictionary<string, string?>(StringComparer.Ordinal);
        foreach (var project in solution.Projects)
        {
            if (project.FilePath is not { } file)
            {
                reasons[project.Id] = "it has no project file";
                continue;
            }
            if (!byFile.TryGetValue(file, out var reason))
            {
                reason = OfProject(file, loadDiagnostics, loadStartedUtc) ?? (unattributed is null ? null : $"the solution's load reported: {Short(unattributed)}");
                byFile[file] = reason;
            }
            if (reason is not null) reasons[project.Id] = reason;
        }
        return reasons;
    }

    /** `reasons` plus every project that depends on one of them, for the same reason. */
    public static Dictionary<ProjectId, string> WithDependents(Solution solution, Dictionary<ProjectId, string> reasons)
    {
        var graph = solution.GetProjectDependencyGraph();
        var all = new Dictionary<ProjectId, string>(reasons);
        foreach (var (id, reason) in reasons)
        {
            var name = solution.GetProject(id)?.Name ?? "a project";
            foreach (var dependent in graph.GetProjectsThatTransitivelyDependOnThisProject(id))
            {
                all.TryAdd(dependent, $"it references {name}, which the engine cannot judge: {reason}");
            }
        }
        return all;
    }

    private static string? OfProject(string file, IReadOnlyList<string> loadDiagnostics, DateTime loadStartedUtc)
    {
        if (RestoreState.NotRestored(file) is { } notRestored) return notRestored;
        if (RestoreState.ChangedSince(file, loadStartedUtc)) return "its restore ran while the engine was loading it (it is reloaded at the next question)";
        var said = loadDiagnostics.FirstOrDefault(d => d.Contains(file, StringComparison.Ordinal));
        if (said is not null) return $"its load reported: {Short(said)}";
        var text = File.Exists(file) ? File.ReadAllText(file) : "";
        var markup = MarkupProperties.FirstOrDefault(p => text.Contains(p, StringComparison.OrdinalIgnoreCase));
        if (markup is not null) return $"it uses {markup.TrimStart('<').Replace(">", " = ")}, whose generated code only a build has";
        var generated = MarkupFile(Path.GetDirectoryName(file)!);
        return generated is null ? null : $"it has {Path.GetExtension(generated)} files ({Path.GetFileName(generated)}), whose generated code only a build has";
    }

    /** The first .razor/.cshtml/.xaml file under the project's folder, leaving out bin/ and obj/. */
    private static string? MarkupFile(string dir)
    {
        var pending = new Stack<string>([dir]);
        while (pending.Count > 0)
        {
            var current = pending.Pop();
            IEnumerable<string> files, dirs;
            try
            {
                files = Directory.EnumerateFiles(current);
                dirs = Directory.EnumerateDirectories(current);
                foreach (var f in files) if (GeneratedFrom.Contains(Path.GetExtension(f), StringComparer.OrdinalIgnoreCase)) return f;
                foreach (var d in dirs)
                {
                    var name = Path.GetFileName(d);
                    if (name is "bin" or "obj" or "node_modules" || name.StartsWith('.')) continue;
                    pending.Push(d);
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // A folder we cannot list holds nothing we can judge either way.
            }
        }
        return null;
    }

    private static string Short(string message) => message.Length <= 200 ? message : message[..200] + "…";
}
