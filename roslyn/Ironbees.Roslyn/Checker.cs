// "check": compile the projects the staged edits touch (and the projects that depend on them,
// since a renamed member breaks its callers) with the edits' text, in memory, and report the
// compile errors that the code on disk did not already have. Nothing is written: the edits live
// in a forked immutable Solution that is dropped after the answer.
//
// A project the engine cannot judge is answered "unknown", never with errors: one Blind.cs names
// at load, one whose restore inputs the staged edits change (a new PackageReference is not in the
// engine's references until a restore), one whose code on disk does not compile here although the
// latest real build had no error in it (the engine's view differs from the build's; with no build
// known, the same), and every project that references one of those. Where the build fails too
// (`buildFailed` names the project), the errors on disk are taken as real and left out as before.
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace Ironbees.Roslyn;

/** An error as the baseline comparison sees it: line numbers move with edits, so they are left out. */
internal readonly record struct DiagnosticKey(string File, string Code, string Message);

internal sealed class Checker(Solution solution, PathMap paths, Baselines baselines, Dictionary<ProjectId, string> blindAtLoad)
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
            if (abs.EndsWith(".cs", StringComparison.OrdinalIgnoreCase)) touched.UnionWith(Overlay.OwningProjects(solution, abs).Select(p => p.Id));
            overlay = Overlay.WithText(overlay, paths, rel, text is null ? null : SourceText.From(text));
        }
        var graph = solution.GetProjectDependencyGraph();
        var projects = touched
            .Concat(touched.SelectMany(graph.GetProjectsThatTransitivelyDependOnThisProject))
            .Distinct()
            .Where(id => solution.GetProject(id)?.Language == LanguageNames.CSharp)
            .ToList();
        var buildFailed = (args["buildFailed"] as JsonArray)?.Select(n => paths.Absolute(n!.GetValue<string>())).ToHashSet(StringComparer.Ordinal);
        var blind = await BlindAsync(projects, args["buildInputs"] as JsonArray, buildFailed);
        var fresh = new List<JsonObject>();
        foreach (var id in projects.Where(id => !blind.ContainsKey(id)))
        {
            var before = await BaselineAsync(id);
            var after = await Baselines.ErrorsAsync(overlay.GetProject(id), paths);
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
            ["projects"] = new JsonArray(projects.Where(id => !blind.ContainsKey(id)).Select(id => solution.GetProject(id)!.Name).Distinct().Order(StringComparer.Ordinal).Select(n => (JsonNode)n).ToArray()),
            ["errors"] = new JsonArray(unique.Take(MaxErrors).ToArray()),
            ["total"] = unique.Count,
            ["unknown"] = Engine.Unknown(solution, blind.Where(b => projects.Contains(b.Key)).ToDictionary()),
        };
    }

    /** The projects among `checkedProjects` (and what they reference) the engine cannot judge now, with why. */
    private async Task<Dictionary<ProjectId, string>> BlindAsync(List<ProjectId> checkedProjects, JsonArray? buildInputs, HashSet<string>? buildFailed)
    {
        var reasons = new Dictionary<ProjectId, string>(blindAtLoad);
        var inputs = (buildInputs ?? []).Select(n => paths.Absolute(n!.GetValue<string>())).ToList();
        var graph = solution.GetProjectDependencyGraph();
        var upstream = checkedProjects.Concat(checkedProjects.SelectMany(graph.GetProjectsThatThisProjectTransitivelyDependsOn)).Distinct();
        foreach (var id in upstream)
        {
            if (reasons.ContainsKey(id) || solution.GetProject(id) is not { } project) continue;
            var staged = project.FilePath is { } file ? inputs.FirstOrDefault(i => RestoreState.IsInputOf(i, file)) : null;
            if (staged is not null)
            {
                reasons[id] = $"your staged {paths.Relative(staged) ?? Path.GetFileName(staged)} changes its build (references, packages or properties), which only a restore and the build see";
                continue;
            }
            if (project.Language != LanguageNames.CSharp) continue;
            var before = await BaselineAsync(id);
            if (before.Count > 0 && !(buildFailed?.Contains(project.FilePath ?? "") ?? false))
            {
                var sample = string.Join(", ", before.Select(k => k.Code).Distinct().Take(3));
                var build = buildFailed is null ? "no build has run yet to compare with" : "the latest build had no error there";
                reasons[id] = $"its code on disk does not compile in the engine ({before.Count} error(s): {sample}) and {build}, so the engine sees it differently from the build";
            }
            else if (await baselines.GeneratorFailureAsync(id) is { } failed)
            {
                reasons[id] = $"a source generator or analyzer did not run in the engine ({failed})";
            }
        }
        return Blind.WithDependents(solution, reasons);
    }

    private Task<List<DiagnosticKey>> BaselineAsync(ProjectId id) => baselines.OfAsync(id);
}
