// Solutions with some files' text replaced, added or removed: for "update" (the disk moved) and for
// "check" (the staged edits, never written). Roslyn solutions are immutable, so a check's fork
// leaves the warm solution as it was.
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace Ironbees.Roslyn;

internal static class Overlay
{
    /** `text` null removes the file. A new .cs file joins the project whose folder is the nearest above it. */
    public static Solution WithText(Solution solution, PathMap paths, string rel, SourceText? text)
    {
        var abs = paths.Absolute(rel);
        var ids = solution.GetDocumentIdsWithFilePath(abs);
        if (ids.Length > 0)
        {
            foreach (var id in ids)
            {
                solution = text is null ? solution.RemoveDocument(id) : solution.WithDocumentText(id, text);
            }
            return solution;
        }
        if (text is null || !abs.EndsWith(".cs", StringComparison.OrdinalIgnoreCase)) return solution;
        // A multi-targeted project is one project per target framework: the new file joins each.
        foreach (var owner in OwningProjects(solution, abs))
        {
            solution = solution.AddDocument(DocumentId.CreateNewId(owner.Id, rel), Path.GetFileName(abs), text, filePath: abs);
        }
        return solution;
    }

    /** Windows and macOS file systems ignore case: `src\app\A.cs` is in the project at `Src\App\`. */
    public static readonly StringComparison PathComparison =
        OperatingSystem.IsWindows() || OperatingSystem.IsMacOS() ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;

    /** The project a new file at `abs` belongs to, once per target framework it is loaded for. */
    public static IEnumerable<Project> OwningProjects(Solution solution, string abs) =>
        OwningProject(solution, abs) is { FilePath: { } file }
            ? solution.Projects.Where(p => p.Language == LanguageNames.CSharp && string.Equals(p.FilePath, file, PathComparison))
            : [];

    public static Project? OwningProject(Solution solution, string abs) =>
        solution.Projects
            .Where(p => p.FilePath is not null && p.Language == LanguageNames.CSharp)
            .Select(p => (project: p, dir: Path.GetDirectoryName(p.FilePath)! + Path.DirectorySeparatorChar))
            .Where(p => abs.StartsWith(p.dir, PathComparison))
            .OrderByDescending(p => p.dir.Length)
            .Select(p => p.project)
            .FirstOrDefault();
}
