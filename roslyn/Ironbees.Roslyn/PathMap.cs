// Workspace-relative paths (forward slashes, as the client speaks them) to documents and back.
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace Ironbees.Roslyn;

internal sealed class PathMap(string root, Solution solution)
{
    public string Root => root;

    public string Absolute(string rel) => Path.GetFullPath(Path.Combine(root, rel.Replace('/', Path.DirectorySeparatorChar)));

    /** Null for files outside the workspace (generated, obj/, the framework). */
    public string? Relative(string? abs)
    {
        if (string.IsNullOrEmpty(abs)) return null;
        var rel = Path.GetRelativePath(root, abs);
        if (rel.StartsWith("..") || Path.IsPathRooted(rel)) return null;
        rel = rel.Replace(Path.DirectorySeparatorChar, '/');
        return rel.StartsWith("obj/") || rel.Contains("/obj/") || rel.Contains("/bin/") ? null : rel;
    }

    public IEnumerable<Document> Documents(string rel) =>
        solution.GetDocumentIdsWithFilePath(Absolute(rel)).Select(solution.GetDocument).OfType<Document>();

    /** 1-based line and column to a text position; throws a message the model can act on. */
    public static int Position(SourceText text, int line, int column, string rel)
    {
        if (line < 1 || line > text.Lines.Count) throw new EngineException($"{rel} has {text.Lines.Count} line(s); line {line} is not one of them.");
        var span = text.Lines[line - 1].Span;
        return span.Start + Math.Clamp(column - 1, 0, span.Length);
    }
}
