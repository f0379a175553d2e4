// "check": compile the projects the staged edits touch (and the projects that depend on them,
// since a renamed member breaks its callers) with the edits' text, in memory, and report the
// compile errors that the code on disk did not already have. Nothing is written: the edits live
// in a forked immutable Solution that is dropped after the answer.
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace Ironbees.Roslyn;

/** An error as the baseline comparison sees it: line numbers move with edits, so they are left out. */
internal readonly record struct DiagnosticKey(string File, string Code, string Message);

internal sealed class Checker(Solution solution, PathMap paths, Dictionary<ProjectId, List<DiagnosticKey>> baselineCache)
{
    private const int MaxErrors = 50;

    public async Task<JsonNode> CheckAsync(JsonObject args)
    {
        var overlay = solution;
        var touched = new HashSet<ProjectId>();
        foreach (var file in args["files"]?.AsArray() ?? [])
        {
            var rel = file!["path"]!.GetValue<string>();
            var text = file["text"]?.GetValue<string>();
            var abs = paths.Absolute(rel);
            foreach (var id in solution.GetDocumentIdsWithFilePath(abs)) touched.Add(id.ProjectId);
            if (Overlay.OwningProject(solution, abs) is { } owner && abs.EndsWith(".cs", StringComparison.OrdinalIgnoreCase)) touched.Add(owner.Id);
            overlay = Overlay.WithText(overlay, paths, rel, text is null ? null : SourceText.From(text));
        }
        var graph = solution.GetProjectDependencyGraph();
        var projects = touched
            .Concat(touched.SelectMany(graph.GetProjectsThatTransitivelyDependOnThisProject))
            .Distinct()
            .Where(id => solution.GetProject(id)?.Language == LanguageNames.CSharp)
            .ToList();
        var fresh = new List<JsonObject>();
        foreach (var id in projects)
        {
            var before = await BaselineAsync(id);
            var after = await ErrorsAsync(overlay.GetProject(id));
            var remaining = before.GroupBy(k => k).ToDictionary(g => g.Key, g => g.Count());
            foreach (var (key, diagnostic) in after)
            {
                if (remaining.TryGetValue(key, out var count) && count > 0)
                {
                    remaining[key] = count - 1;
                    continue;
                }
                var line = diagnostic.Location.GetLineSpan().StartLinePosition;
                fresh.Add(new JsonObject
                {
                    ["filePath"] = key.File,
                    ["line"] = line.Line + 1,
                    ["column"] = line.Character + 1,
                    ["code"] = key.Code,
                    ["message"] = key.Message,
                    ["project"] = solution.GetProject(id)!.Name,
                });
            }
        }
        // The same error seen from two target frameworks is one error to fix.
        var unique = fresh.DistinctBy(e => $"{e["filePath"]}:{e["line"]}:{e["column"]}:{e["code"]}").ToList();
        return new JsonObject
        {
            ["projects"] = new JsonArray(projects.Select(id => (JsonNode)solution.GetProject(id)!.Name).Distinct().ToArray()),
            ["errors"] = new JsonArray(unique.Take(MaxErrors).ToArray()),
            ["total"] = unique.Count,
        };
    }

    private async Task<List<DiagnosticKey>> BaselineAsync(ProjectId id)
    {
        if (baselineCache.TryGetValue(id, out var cached)) return cached;
        var errors = (await ErrorsAsync(solution.GetProject(id))).Select(e => e.key).ToList();
        baselineCache[id] = errors;
        return errors;
    }

    private async Task<List<(DiagnosticKey key, Diagnostic diagnostic)>> ErrorsAsync(Project? project)
    {
        if (project is null) return [];
        var compilation = await project.GetCompilationAsync();
        if (compilation is null) return [];
        return compilation.GetDiagnostics()
            .Where(d => d.Severity == DiagnosticSeverity.Error || d.IsWarningAsError)
            .Select(d => (new DiagnosticKey(FileOf(d), d.Id, d.GetMessage(System.Globalization.CultureInfo.InvariantCulture)), d))
            .ToList();
    }

    private string FileOf(Diagnostic d) =>
        d.Location.IsInSource ? paths.Relative(d.Location.SourceTree!.FilePath) ?? Path.GetFileName(d.Location.SourceTree!.FilePath) : "";
}
