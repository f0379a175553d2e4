// The compile errors of the code on disk, per project, for one solution: what "check" compares
// the staged edits with. Computed once per project and shared, and computed ahead (Prewarm) right
// after a load while the engine waits for its first question, so the first check pays only for the
// edited project's compile.
using Microsoft.CodeAnalysis;

namespace Ironbees.Roslyn;

internal sealed class Baselines(Solution solution, string root)
{
    /** Compiler warnings that say a source generator or analyzer did not run: its output is missing. */
    private static readonly HashSet<string> GeneratorFailures = ["CS8032", "CS8784", "CS8785", "CS9057"];

    private readonly Dictionary<ProjectId, Task<(List<(DiagnosticKey key, Diagnostic diagnostic)> errors, string? generatorFailure)>> cache = [];

    public Solution Solution => solution;

    public async Task<List<DiagnosticKey>> OfAsync(ProjectId id) => (await Of(id)).errors.Select(e => e.key).ToList();

    /** Why a source generator or analyzer of the project did not run in the engine; null when they all did. */
    public async Task<string?> GeneratorFailureAsync(ProjectId id) => (await Of(id)).generatorFailure;

    /** The background compile Prewarm started (done at once when none was). */
    public Task Warmed { get; private set; } = Task.CompletedTask;

    /** Starts every project's compile in dependency order, in the background; errors surface when asked for. */
    public void Prewarm()
    {
        Warmed = Task.Run(async () =>
        {
            foreach (var id in solution.GetProjectDependencyGraph().GetTopologicallySortedProjects())
            {
                try
                {
                    await Of(id);
                }
                catch (Exception e)
                {
                    Console.Error.WriteLine($"Ironbees.Roslyn: compiling {solution.GetProject(id)?.Name} ahead failed: {e.Message}");
                }
            }
        });
    }

    private Task<(List<(DiagnosticKey key, Diagnostic diagnostic)> errors, string? generatorFailure)> Of(ProjectId id)
    {
        lock (cache)
        {
            if (!cache.TryGetValue(id, out var task)) cache[id] = task = Task.Run(() => CompileAsync(solution.GetProject(id), new PathMap(root, solution)));
            return task;
        }
    }

    /** The compile errors (and warnings treated as errors) of a project as it is in its solution. */
    public static async Task<List<(DiagnosticKey key, Diagnostic diagnostic)>> ErrorsAsync(Project? project, PathMap paths) =>
        (await CompileAsync(project, paths)).errors;

    private static async Task<(List<(DiagnosticKey key, Diagnostic diagnostic)> errors, string? generatorFailure)> CompileAsync(Project? project, PathMap paths)
    {
        if (project is null || project.Language != LanguageNames.CSharp) return ([], null);
        var compilation = await project.GetCompilationAsync();
        if (compilation is null) return ([], null);
        var diagnostics = compilation.GetDiagnostics();
        var errors = diagnostics
            .Where(d => d.Severity == DiagnosticSeverity.Error || d.IsWarningAsError)
            .Select(d => (new DiagnosticKey(FileOf(d, paths), d.Id, d.GetMessage(System.Globalization.CultureInfo.InvariantCulture)), d))
            .ToList();
        var failed = diagnostics.FirstOrDefault(d => GeneratorFailures.Contains(d.Id));
        var unresolved = project.AnalyzerReferences.OfType<Microsoft.CodeAnalysis.Diagnostics.UnresolvedAnalyzerReference>().FirstOrDefault();
        var why = failed is not null
            ? $"{failed.Id}: {failed.GetMessage(System.Globalization.CultureInfo.InvariantCulture)}"
            : unresolved is not null ? $"{unresolved.Display} could not be loaded" : null;
        return (errors, why);
    }

    private static string FileOf(Diagnostic d, PathMap paths) =>
        d.Location.IsInSource ? paths.Relative(d.Location.SourceTree!.FilePath) ?? Path.GetFileName(d.Location.SourceTree!.FilePath) : "";
}
