// A file's outline: its types and their members in source order, with kinds and positions, from
// the declared symbols of the syntax tree (so a partial class shows only this file's part).
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Ironbees.Roslyn;

internal static class Outline
{
    public static async Task<JsonNode> OfAsync(Solution solution, PathMap paths, JsonObject args)
    {
        var rel = args["filePath"]?.GetValue<string>() ?? throw new EngineException("outline needs filePath.");
        var document = paths.Documents(rel).FirstOrDefault() ?? throw new EngineException($"{rel} is not a C# file of a loaded project.");
        var root = await document.GetSyntaxRootAsync() ?? throw new EngineException($"No syntax tree for {rel}.");
        var model = await document.GetSemanticModelAsync() ?? throw new EngineException($"No semantic model for {rel}.");
        var entries = new JsonArray();
        foreach (var node in root.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax or TypeDeclarationSyntax))
        {
            IEnumerable<ISymbol?> declared = node switch
            {
                BaseTypeDeclarationSyntax or DelegateDeclarationSyntax or MethodDeclarationSyntax or ConstructorDeclarationSyntax
                    or PropertyDeclarationSyntax or IndexerDeclarationSyntax or EventDeclarationSyntax or DestructorDeclarationSyntax
                    or OperatorDeclarationSyntax or ConversionOperatorDeclarationSyntax or EnumMemberDeclarationSyntax => [model.GetDeclaredSymbol(node)],
                BaseFieldDeclarationSyntax field => field.Declaration.Variables.Select(v => model.GetDeclaredSymbol(v)),
                ParameterSyntax p when p.Parent?.Parent is RecordDeclarationSyntax => [],
                _ => [],
            };
            foreach (var symbol in declared.OfType<ISymbol>())
            {
                var location = symbol.Locations.FirstOrDefault(l => l.SourceTree == root.SyntaxTree && node.Span.Contains(l.SourceSpan));
                if (location is null) continue;
                var entry = Json.Declarations(symbol, paths).FirstOrDefault(e => (int)e["line"]! == location.GetLineSpan().StartLinePosition.Line + 1);
                if (entry is not null) entries.Add(entry);
            }
            if (node is EnumDeclarationSyntax enumNode)
            {
                foreach (var member in enumNode.Members)
                {
                    if (model.GetDeclaredSymbol(member) is { } m && Json.Declarations(m, paths).FirstOrDefault() is { } e) entries.Add(e);
                }
            }
        }
        return entries;
    }
}
