// The warm workspace: one MSBuildWorkspace per opened root, kept for the life of the process.
// The client tells it which files changed on disk ("update"); queries then see the new text
// without reloading the projects. What a restore decides (package references, the assets file) is
// followed instead: before each question the restore inputs and assets files are compared with
// the load's, and when a restore ran or an input changed since, the solution is loaded again, so
// no answer comes from references older than the ones `dotnet build` will use.
using System.Diagnostics;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.MSBuild;
using Microsoft.CodeAnalysis.Text;

namespace Ironbees.Roslyn;

internal sealed class Engine
{
    /** Beyond these, loading takes minutes and gigabytes: the client falls back to the text index. */
    private static readonly int MaxProjects = EnvInt("IRONBEES_ROSLYN_MAX_PROJECTS", 400);

    private MSBuildWorkspace? workspace;
    private string root = "";
    private Solution? solution;
    /** The code on disk's errors per project, for the solution as it is now. */
    private Baselines? baselines;
    private readonly StagedFork staged = new();
    private string target = "";
    private string fingerprint = "";
    /** Projects whose compile the engine cannot vouch for, with why (Blind.cs). */
    private Dictionary<ProjectId, string> blind = [];
    private JsonArray loadWarnings = [];

    public async Task<JsonNode?> HandleAsync(string method, JsonObject args)
    {
        if (method == "ping") return "pong";
        if (method == "open") return await OpenAsync(args);
        if (solution is null) throw new EngineException("No solution is open; send open first.");
        if (method == "reload") return await ReloadAsync(force: true);
        // Once the restores a load overlapped are over: loaded again now if they changed anything,
        // so the next question does not wait for it.
        if (method == "settle") return await ReloadAsync(force: false);
        if (method == "warmed")
        {
            // For benches: waits until the compile started after the load is done.
            var clock = Stopwatch.StartNew();
            if (baselines is not null) await baselines.Warmed;
            return new JsonObject { ["waitedMs"] = clock.ElapsedMilliseconds };
        }
        await ReloadAsync(force: false);
        var disk = solution ?? throw new EngineException("No solution is open; send open first.");
        if (method == "update") return Update(args, disk);
        // Symbol questions may carry the coder's staged edits: they are answered on that text, in a
        // fork of the warm solution (check has its own files and baseline, on the disk's text).
        var current = method == "check" ? disk : staged.Apply(disk, new PathMap(root, disk), args["staged"] as JsonArray);
        var paths = new PathMap(root, current);
        return method switch
        {
            "symbols" => await Symbols.FindAsync(current, paths, args),
            "definitions" => await Symbols.DefinitionsAsync(current, paths, args),
            "references" => await Symbols.ReferencesAsync(current, paths, args),
            "relatedTypes" => await Symbols.RelatedTypesAsync(current, paths, args),
            "implementations" => await Symbols.ImplementationsAsync(current, paths, args),
            "outline" => await Outline.OfAsync(current, paths, args),
            "check" => await new Checker(disk, paths, BaselinesOf(disk), blind).CheckAsync(args),
            _ => throw new EngineException($"Unknown method {method}."),
        };
    }

    private async Task<JsonNode> OpenAsync(JsonObject args)
    {
        var path = args["path"]?.GetValue<string>() ?? throw new EngineException("open needs path (a .sln, .slnx or project file).");
        return await LoadAsync(path, Path.GetFullPath(args["root"]?.GetValue<string>() ?? Path.GetDirectoryName(path)!));
    }

    /** Loads the solution again when a restore ran or a restore input changed since the last load (or when forced). */
    private async Task<JsonNode> ReloadAsync(bool force)
    {
        if (!force && solution is not null && RestoreState.Fingerprint(ProjectFiles(solution)) == fingerprint) return new JsonObject { ["reloaded"] = false };
        Console.Error.WriteLine("Ironbees.Roslyn: a restore ran or a project input changed since the load; loading again.");
        var before = solution!;
        try
        {
            var loaded = await LoadAsync(target, root);
            loaded["reloaded"] = true;
            return loaded;
        }
        catch (EngineException e)
        {
            // The projects no longer load (a broken project file on disk): keep answering symbol
            // questions from the last load, and judge no project until a load succeeds again.
            solution = before;
            fingerprint = RestoreState.Fingerprint(ProjectFiles(before));
            blind = before.ProjectIds.ToDictionary(id => id, _ => $"the solution no longer loads: {e.Message}");
            return new JsonObject { ["reloaded"] = false, ["error"] = e.Message };
        }
    }

    private static IEnumerable<string> ProjectFiles(Solution s) => s.Projects.Select(p => p.FilePath).OfType<string>().Distinct();

    /** MSBuildWorkspace's words when its build host missed a time limit (a busy machine), not a project problem. */
    private const string BuildHostTimeout = "BuildHost process is not responding";

    /** Loads; a load whose build host did not respond is tried once more before its projects are given up as unknown. */
    private async Task<JsonObject> LoadAsync(string targetPath, string rootPath)
    {
        var loaded = await LoadOnceAsync(targetPath, rootPath);
        if (!(loaded["warnings"]?.AsArray().Any(w => w?.GetValue<string>().Contains(BuildHostTimeout, StringComparison.Ordinal) == true) ?? false)) return loaded;
        Console.Error.WriteLine("Ironbees.Roslyn: MSBuild's build host did not respond during the load; loading again.");
        return await LoadOnceAsync(targetPath, rootPath);
    }

    private async Task<JsonObject> LoadOnceAsync(string targetPath, string rootPath)
    {
        target = targetPath;
        root = rootPath;
        var clock = Stopwatch.StartNew();
        var startedUtc = DateTime.UtcNow;
        workspace?.Dispose();
        baselines = null;
        staged.Clear();
        workspace = MSBuildWorkspace.Create();
        var failures = new List<string>();
        var diagnostics = new List<string>();
        workspace.RegisterWorkspaceFailedHandler(e =>
        {
            lock (diagnostics)
            {
                diagnostics.Add(e.Diagnostic.Message);
                if (e.Diagnostic.Kind == WorkspaceDiagnosticKind.Failure) failures.Add(e.Diagnostic.Message);
            }
        });
        if (WarmCache.Load(target) is { } warm)
        {
            // The same inputs as a load whose result was kept: no MSBuild this time.
            solution = warm.solution;
            return Loaded(warm.diagnostics, warm.failures, startedUtc, clock, phases: null, fromCache: true);
        }
        var extension = Path.GetExtension(target).ToLowerInvariant();
        var phases = new LoadPhases(clock);
        if (extension is ".sln" or ".slnx" or ".slnf")
        {
            solution = await workspace.OpenSolutionAsync(target, progress: phases);
        }
        else
        {
            await workspace.OpenProjectAsync(target, progress: phases);
            solution = workspace.CurrentSolution;
        }
        var loaded = Loaded(diagnostics, failures, startedUtc, clock, phases, fromCache: false);
        // Kept for the next engine on the same inputs, unless one was written while loading.
        if (fingerprint != ChangedDuringLoad && WarmCache.Key(target, ProjectFiles(solution)) is { } key)
        {
            WarmCache.Save(target, key, solution, diagnostics, failures);
        }
        return loaded;
    }

    private const string ChangedDuringLoad = "changed during the load";

    private Baselines BaselinesOf(Solution current)
    {
        if (baselines is null || !ReferenceEquals(baselines.Solution, current)) baselines = new Baselines(current, root);
        return baselines;
    }

    private JsonObject Loaded(List<string> diagnostics, List<string> failures, DateTime startedUtc, Stopwatch clock, LoadPhases? phases, bool fromCache)
    {
        var current = solution!;
        // A project MSBuild failed to evaluate still comes back, empty: it does not count as loaded.
        var projects = current.Projects.Where(p => p.Language == LanguageNames.CSharp && p.DocumentIds.Count > 0).ToList();
        if (projects.Count == 0)
        {
            var why = failures.Count > 0 ? string.Join(" | ", failures.Take(3)) : "it has no C# project";
            solution = null;
            throw new EngineException($"MSBuild could not load {Path.GetFileName(target)}: {why}");
        }
        if (projects.Count > MaxProjects)
        {
            solution = null;
            throw new EngineException($"{Path.GetFileName(target)} has {projects.Count} C# projects, more than the engine loads ({MaxProjects}).");
        }
        blind = Blind.WithDependents(current, Blind.AtLoad(current, diagnostics, failures, startedUtc));
        // Written while loading: what was read may predate it, so the next question loads again.
        fingerprint = ProjectFiles(current).Any(f => RestoreState.ChangedSince(f, startedUtc)) ? ChangedDuringLoad : RestoreState.Fingerprint(ProjectFiles(current));
        loadWarnings = new JsonArray(failures.Take(10).Select(f => (JsonNode)f).ToArray());
        // Compiled ahead while the run plans: the first check then pays only for the edited project.
        BaselinesOf(current).Prewarm();
        return new JsonObject
        {
            ["projects"] = projects.Count,
            ["documents"] = projects.Sum(p => p.DocumentIds.Count),
            ["loadMs"] = clock.ElapsedMilliseconds,
            ["phases"] = phases?.ToJson() ?? new JsonObject(),
            ["fromCache"] = fromCache,
            ["warnings"] = loadWarnings.DeepClone(),
            ["unknown"] = Unknown(current, blind),
        };
    }

    /** The projects check answers "unknown" for: [{ project, reason }]. */
    public static JsonArray Unknown(Solution s, Dictionary<ProjectId, string> reasons) =>
        new(reasons
            .Select(r => (name: s.GetProject(r.Key)?.Name, reason: r.Value))
            .Where(r => r.name is not null)
            .DistinctBy(r => r.name)
            .OrderBy(r => r.name, StringComparer.Ordinal)
            .Select(r => (JsonNode)new JsonObject { ["project"] = r.name, ["reason"] = r.reason })
            .ToArray());

    /** Files changed on disk: re-read them; new .cs files join the project whose folder holds them. */
    private JsonNode Update(JsonObject args, Solution current)
    {
        var paths = new PathMap(root, current);
        var changed = 0;
        foreach (var node in args["paths"]?.AsArray() ?? [])
        {
            var rel = node!.GetValue<string>();
            var abs = paths.Absolute(rel);
            var text = File.Exists(abs) ? SourceText.From(File.ReadAllText(abs)) : null;
            current = Overlay.WithText(current, paths, rel, text);
            changed++;
        }
        solution = current;
        staged.Clear();
        // The baseline of check is "the code on disk": it moved, so it is computed again on demand.
        baselines = null;
        return new JsonObject { ["changed"] = changed };
    }

    private static int EnvInt(string name, int fallback) =>
        int.TryParse(Environment.GetEnvironmentVariable(name), out var value) && value > 0 ? value : fallback;
}
