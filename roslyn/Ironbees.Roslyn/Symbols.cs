// The symbol questions, answered from the semantic model: declarations by name, go to definition,
// references of one symbol, type hierarchy and implementations. Results name workspace files only.
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;

namespace Ironbees.Roslyn;

internal static class Symbols
{
    public static async Task<JsonNode> FindAsync(Solution solution, PathMap paths, JsonObject args)
    {
        var query = (args["query"]?.GetValue<string>() ?? "").Trim();
        var kind = args["kind"]?.GetValue<string>();
        var limit = args["limit"]?.GetValue<int>() ?? 100;
        var dot = query.LastIndexOf('.');
        var container = dot > 0 ? query[..dot] : null;
        var name = dot >= 0 ? query[(dot + 1)..] : query;
        var found = new List<(int rank, ISymbol symbol)>();
        var declarations = name.Length == 0
            ? await AllDeclarationsAsync(solution)
            : await SymbolFinder.FindSourceDeclarationsWithPatternAsync(solution, name, SymbolFilter.All);
        foreach (var symbol in declarations.Distinct(SymbolEqualityComparer.Default))
        {
            if (symbol.IsImplicitlyDeclared) continue;
            if (kind is not null && Json.Kind(symbol) != kind) continue;
            if (container is not null && !Json.Container(symbol).EndsWith(container, StringComparison.OrdinalIgnoreCase)) continue;
            if (!symbol.Locations.Any(l => l.IsInSource && paths.Relative(l.SourceTree?.FilePath) is not null)) continue;
            found.Add((Rank(symbol.Name, name), symbol));
        }
        var ordered = found.OrderBy(f => f.rank).ThenBy(f => f.symbol.Name, StringComparer.Ordinal).ThenBy(f => Json.Container(f.symbol));
        return new JsonArray(ordered.SelectMany(f => Json.Declarations(f.symbol, paths)).Take(limit).ToArray());
    }

    public static async Task<JsonNode> DefinitionsAsync(Solution solution, PathMap paths, JsonObject args)
    {
        var symbol = await SymbolAtAsync(solution, paths, args);
        if (symbol is null) return new JsonArray();
        return new JsonArray(Json.Declarations(symbol, paths, withPreview: true).ToArray());
    }

    /** References of the symbol at `at`, or of every declaration named `name` ("Add", "Calculator.Add"). */
    public static async Task<JsonNode> ReferencesAsync(Solution solution, PathMap paths, JsonObject args)
    {
        var limit = args["limit"]?.GetValue<int>() ?? 200;
        var targets = args["at"] is JsonObject
            ? (await SymbolAtAsync(solution, paths, args) is { } s ? [s] : [])
            : await ByNameAsync(solution, args["name"]?.GetValue<string>() ?? "");
        var places = new List<JsonNode>();
        var seen = new HashSet<string>();
        foreach (var target in targets)
        {
            foreach (var reference in await SymbolFinder.FindReferencesAsync(target, solution))
            {
                // A property's accessors come back as definitions of their own, "declared" at `get`/`set`.
                var declarations = reference.Definition is IMethodSymbol { AssociatedSymbol: not null } ? [] : reference.Definition.Locations.Where(l => l.IsInSource);
                var locations = declarations
                    .Concat(reference.Locations.Where(l => !l.IsImplicit).Select(l => l.Location));
                foreach (var location in locations)
                {
                    if (Json.Place(location, paths) is not { } place) continue;
                    if (seen.Add($"{place["filePath"]}:{place["line"]}:{place["column"]}")) places.Add(place);
                }
            }
        }
        return new JsonArray(places.OrderBy(p => (string)p["filePath"]!, StringComparer.Ordinal)
            .ThenBy(p => (int)p["line"]!).ThenBy(p => (int)p["column"]!).Take(limit).ToArray());
    }

    public static async Task<JsonNode> RelatedTypesAsync(Solution solution, PathMap paths, JsonObject args)
    {
        var types = (await ByNameAsync(solution, args["typeName"]?.GetValue<string>() ?? "")).OfType<INamedTypeSymbol>();
        var result = new JsonArray();
        foreach (var type in types)
        {
            var supertypes = new List<INamedTypeSymbol>();
            if (type.BaseType is { SpecialType: not SpecialType.System_Object and not SpecialType.System_ValueType and not SpecialType.System_Enum } b) supertypes.Add(b);
            supertypes.AddRange(type.Interfaces);
            var subtypes = new List<INamedTypeSymbol>();
            if (type.TypeKind == TypeKind.Interface)
            {
                subtypes.AddRange(await SymbolFinder.FindDerivedInterfacesAsync(type, solution, transitive: false));
                subtypes.AddRange(await SymbolFinder.FindImplementationsAsync(type, solution, transitive: false));
            }
            else if (type.TypeKind == TypeKind.Class)
            {
                subtypes.AddRange(await SymbolFinder.FindDerivedClassesAsync(type, solution, transitive: false));
            }
            if (Json.Declarations(type, paths).FirstOrDefault() is not { } declared) continue;
            result.Add(new JsonObject
            {
                ["type"] = declared,
                ["supertypes"] = new JsonArray(supertypes.Select(t => Json.Related(t, paths)).ToArray()),
                ["subtypes"] = new JsonArray(subtypes.Distinct<INamedTypeSymbol>(SymbolEqualityComparer.Default)
                    .Select(t => Json.Related(t, paths)).OrderBy(t => (string)t["name"]!, StringComparer.Ordinal).ToArray()),
            });
        }
        return result;
    }

    /** Implementations of an interface or abstract member, overrides of a virtual one, implementors of an interface. */
    public static async Task<JsonNode> ImplementationsAsync(Solution solution, PathMap paths, JsonObject args)
    {
        var targets = args["at"] is JsonObject
            ? (await SymbolAtAsync(solution, paths, args) is { } s ? [s] : [])
            : await ByNameAsync(solution, args["name"]?.GetValue<string>() ?? "");
        var found = new List<ISymbol>();
        foreach (var target in targets)
        {
            found.AddRange(await SymbolFinder.FindImplementationsAsync(target, solution));
            if (target is INamedTypeSymbol { TypeKind: TypeKind.Class } type) found.AddRange(await SymbolFinder.FindDerivedClassesAsync(type, solution));
            else if (target.IsVirtual || target.IsAbstract || target.IsOverride) found.AddRange(await SymbolFinder.FindOverridesAsync(target, solution));
        }
        return new JsonArray(found.Distinct(SymbolEqualityComparer.Default).SelectMany(s => Json.Declarations(s!, paths, withPreview: true)).ToArray());
    }

    /** The symbol at a 1-based position: what go to definition would jump to. */
    private static async Task<ISymbol?> SymbolAtAsync(Solution solution, PathMap paths, JsonObject args)
    {
        var at = args["at"]!.AsObject();
        var rel = at["filePath"]!.GetValue<string>();
        var document = paths.Documents(rel).FirstOrDefault() ?? throw new EngineException($"{rel} is not a C# file of a loaded project.");
        var text = await document.GetTextAsync();
        var position = PathMap.Position(text, at["line"]!.GetValue<int>(), at["column"]!.GetValue<int>(), rel);
        var model = await document.GetSemanticModelAsync() ?? throw new EngineException($"No semantic model for {rel}.");
        var symbol = await SymbolFinder.FindSymbolAtPositionAsync(model, position, solution.Workspace);
        // A column right after the identifier (the model counted one too far) still means it.
        if (symbol is null && position > 0) symbol = await SymbolFinder.FindSymbolAtPositionAsync(model, position - 1, solution.Workspace);
        return symbol switch
        {
            null => null,
            IMethodSymbol { ReducedFrom: { } reduced } => reduced.OriginalDefinition,
            _ => symbol.OriginalDefinition,
        };
    }

    /** Source declarations named `name`, narrowed by container for "Type.Member". */
    private static async Task<IReadOnlyList<ISymbol>> ByNameAsync(Solution solution, string query)
    {
        query = query.Trim().TrimStart('@');
        var dot = query.LastIndexOf('.');
        var container = dot > 0 ? query[..dot] : null;
        var name = dot >= 0 ? query[(dot + 1)..] : query;
        if (name.Length == 0) throw new EngineException("A symbol name is needed, e.g. \"Add\" or \"Calculator.Add\".");
        var symbols = await SymbolFinder.FindSourceDeclarationsAsync(solution, name, ignoreCase: false, SymbolFilter.All);
        return symbols
            .Where(s => container is null || ("." + Json.Container(s)).EndsWith("." + container, StringComparison.Ordinal))
            .Distinct(SymbolEqualityComparer.Default).ToList()!;
    }

    private static async Task<IEnumerable<ISymbol>> AllDeclarationsAsync(Solution solution) =>
        await SymbolFinder.FindSourceDeclarationsAsync(solution, _ => true, SymbolFilter.TypeAndMember);

    /** Exact name first, then same name in another case, then prefix, then the rest of the pattern's matches. */
    private static int Rank(string symbolName, string query)
    {
        if (query.Length == 0) return 0;
        if (symbolName == query) return 0;
        if (string.Equals(symbolName, query, StringComparison.OrdinalIgnoreCase)) return 1;
        if (symbolName.StartsWith(query, StringComparison.OrdinalIgnoreCase)) return 2;
        return 3;
    }
}
