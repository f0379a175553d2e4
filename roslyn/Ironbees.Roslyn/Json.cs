// How symbols and places travel to the client: the shapes of src/core/host.ts (SymbolInfo,
// SymbolDefinition, SymbolLocation, RelatedType), 1-based lines and columns, workspace-relative paths.
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;

namespace Ironbees.Roslyn;

internal static class Json
{
    private const int MaxPreview = 200;

    public static string Kind(ISymbol symbol) => symbol switch
    {
        INamedTypeSymbol { IsRecord: true } => "record",
        INamedTypeSymbol t => t.TypeKind switch
        {
            TypeKind.Class => "class",
            TypeKind.Interface => "interface",
            TypeKind.Struct => "struct",
            TypeKind.Enum => "enum",
            TypeKind.Delegate => "delegate",
            _ => "other",
        },
        IMethodSymbol { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor } => "constructor",
        IMethodSymbol => "method",
        IPropertySymbol => "property",
        IFieldSymbol => "field",
        IEventSymbol => "event",
        INamespaceSymbol => "namespace",
        _ => "other",
    };

    /** "Acme.Calculator" for a member of it; the namespace for a top-level type; "" for the global namespace. */
    public static string Container(ISymbol symbol)
    {
        if (symbol.ContainingType is { } type) return type.ToDisplayString(SymbolDisplayFormat.CSharpErrorMessageFormat.WithGenericsOptions(SymbolDisplayGenericsOptions.None));
        return symbol.ContainingNamespace is { IsGlobalNamespace: false } ns ? ns.ToDisplayString() : "";
    }

    private static string Name(ISymbol symbol) => symbol switch
    {
        IMethodSymbol { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor } m => m.ContainingType.Name,
        IPropertySymbol { IsIndexer: true } => "this[]",
        _ => symbol.Name,
    };

    /** One entry per source declaration in the workspace (a partial class has several). */
    public static IEnumerable<JsonObject> Declarations(ISymbol symbol, PathMap paths, bool withPreview = false)
    {
        foreach (var location in symbol.Locations.Where(l => l.IsInSource))
        {
            var rel = paths.Relative(location.SourceTree!.FilePath);
            if (rel is null) continue;
            var line = location.GetLineSpan().StartLinePosition;
            var entry = new JsonObject
            {
                ["name"] = Name(symbol),
                ["kind"] = Kind(symbol),
                ["filePath"] = rel,
                ["line"] = line.Line + 1,
                ["column"] = line.Character + 1,
            };
            var container = Container(symbol);
            if (container.Length > 0) entry["containerName"] = container;
            if (withPreview) entry["preview"] = Preview(location);
            yield return entry;
        }
    }

    public static JsonObject? Place(Location location, PathMap paths)
    {
        if (!location.IsInSource) return null;
        var rel = paths.Relative(location.SourceTree!.FilePath);
        if (rel is null) return null;
        var line = location.GetLineSpan().StartLinePosition;
        return new JsonObject { ["filePath"] = rel, ["line"] = line.Line + 1, ["column"] = line.Character + 1, ["preview"] = Preview(location) };
    }

    public static JsonObject Related(INamedTypeSymbol type, PathMap paths)
    {
        var original = type.OriginalDefinition;
        if (Declarations(original, paths).FirstOrDefault() is { } declared) return declared;
        var entry = new JsonObject { ["name"] = type.ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat), ["kind"] = Kind(original) };
        var container = Container(original);
        if (container.Length > 0) entry["containerName"] = container;
        return entry;
    }

    private static string Preview(Location location)
    {
        var text = location.SourceTree!.GetText();
        var line = text.Lines[location.GetLineSpan().StartLinePosition.Line].ToString().Trim();
        return line.Length > MaxPreview ? line[..MaxPreview] + "…" : line;
    }
}
