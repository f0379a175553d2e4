// The warm start: what a load learned (each project's documents, references, analyzers and
// options, the result of MSBuild's evaluation and design-time build) is written to the user's cache
// folder, keyed by the engine, the SDK, the target, the content of every restore input and
// obj/project.assets.json and the C# files present. The next engine on the same inputs builds the
// solution from it in milliseconds instead of running MSBuild; any change of the key loads cold.
// Kept out of the workspace: a cache committed to a repository must not choose what the engine loads.
using System.Reflection;
using System.Runtime.Loader;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Host.Mef;
using Microsoft.CodeAnalysis.Text;

namespace Ironbees.Roslyn;

internal static class WarmCache
{
    private const int Version = 1;

    /** The SDK's MSBuild the engine registered: another SDK evaluates projects differently. */
    public static string MSBuildPath { get; set; } = "";

    /** IRONBEES_ROSLYN_CACHE: the folder (default: the user's cache folder); "0" turns the cache off. */
    private static string? Folder()
    {
        var setting = Environment.GetEnvironmentVariable("IRONBEES_ROSLYN_CACHE");
        if (setting == "0") return null;
        if (!string.IsNullOrEmpty(setting)) return setting;
        var xdg = Environment.GetEnvironmentVariable("XDG_CACHE_HOME");
        var baseDir = OperatingSystem.IsWindows()
            ? Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData)
            : !string.IsNullOrEmpty(xdg) ? xdg : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".cache");
        return string.IsNullOrEmpty(baseDir) ? null : Path.Combine(baseDir, "ironbees", "roslyn");
    }

    private static string? FileFor(string target)
    {
        var folder = Folder();
        return folder is null ? null : Path.Combine(folder, $"{Hash(target)[..24]}.json");
    }

    /** The key of a load: null when an input cannot be read (then nothing is cached). */
    public static string? Key(string target, IEnumerable<string> projectFiles)
    {
        try
        {
            var text = new StringBuilder();
            text.Append(Version).Append('\n').Append(typeof(WarmCache).Assembly.ManifestModule.ModuleVersionId).Append('\n');
            text.Append(RuntimeEnvironment()).Append('\n').Append(target).Append('=').Append(Hash(File.ReadAllBytes(target))).Append('\n');
            foreach (var project in projectFiles.Order(StringComparer.Ordinal))
            {
                foreach (var input in RestoreState.Inputs(project).Append(RestoreState.AssetsFile(project)).Distinct(StringComparer.Ordinal))
                {
                    text.Append(input).Append('=').Append(File.Exists(input) ? Hash(File.ReadAllBytes(input)) : "-").Append('\n');
                }
                // Globbed sources: a C# file added or removed changes the project's documents.
                foreach (var source in SourceFiles(Path.GetDirectoryName(project)!)) text.Append(source).Append('\n');
            }
            return Hash(text.ToString());
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    public static void Save(string target, string key, Solution solution, IReadOnlyList<string> diagnostics, IReadOnlyList<string> failures)
    {
        var file = FileFor(target);
        if (file is null) return;
        try
        {
            var projects = solution.Projects.Where(p => p.Language == LanguageNames.CSharp).ToList();
            var index = projects.Select((p, i) => (p.Id, i)).ToDictionary(x => x.Id, x => x.i);
            var json = new JsonObject
            {
                ["key"] = key,
                ["diagnostics"] = new JsonArray(diagnostics.Select(d => (JsonNode)d).ToArray()),
                ["failures"] = new JsonArray(failures.Select(d => (JsonNode)d).ToArray()),
                ["projects"] = new JsonArray(projects.Select(p => (JsonNode)ProjectToJson(p, index)).ToArray()),
            };
            Directory.CreateDirectory(Path.GetDirectoryName(file)!);
            var temp = $"{file}.{Environment.ProcessId}.tmp";
            File.WriteAllText(temp, json.ToJsonString());
            File.Move(temp, file, overwrite: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or NotSupportedException)
        {
            Console.Error.WriteLine($"Ironbees.Roslyn: the warm-start cache was not written: {e.Message}");
        }
    }

    /**
     * The solution as the last load saw it, when nothing in its key changed since (the key is made
     * again from the project files it lists); null otherwise (no cache, a changed input, a file gone).
     */
    public static (Solution solution, List<string> diagnostics, List<string> failures)? Load(string target)
    {
        var file = FileFor(target);
        if (file is null || !File.Exists(file)) return null;
        try
        {
            var json = JsonNode.Parse(File.ReadAllText(file))!.AsObject();
            var projects = json["projects"]!.AsArray().Select(p => p!.AsObject()).ToList();
            var projectFiles = projects.Select(p => p["filePath"]?.GetValue<string>()).OfType<string>().Distinct(StringComparer.Ordinal);
            var key = Key(target, projectFiles);
            if (key is null || json["key"]?.GetValue<string>() != key) return null;
            var ids = projects.Select(p => ProjectId.CreateNewId(p["name"]!.GetValue<string>())).ToList();
            var infos = new List<ProjectInfo>();
            for (var i = 0; i < projects.Count; i++)
            {
                var info = ProjectFromJson(projects[i], ids[i], ids);
                if (info is null) return null;
                infos.Add(info);
            }
            var workspace = new AdhocWorkspace(MefHostServices.DefaultHost);
            var solution = workspace.AddSolution(SolutionInfo.Create(SolutionId.CreateNewId(), VersionStamp.Create(), target, infos));
            return (solution, Strings(json["diagnostics"]), Strings(json["failures"]));
        }
        catch (Exception e) when (e is IOException or JsonException or InvalidOperationException or KeyNotFoundException or NullReferenceException or ArgumentException or FormatException)
        {
            Console.Error.WriteLine($"Ironbees.Roslyn: the warm-start cache was not used: {e.Message}");
            return null;
        }
    }

    private static JsonObject ProjectToJson(Project p, Dictionary<ProjectId, int> index)
    {
        var options = (CSharpCompilationOptions)p.CompilationOptions!;
        var parse = (CSharpParseOptions)p.ParseOptions!;
        return new JsonObject
        {
            ["name"] = p.Name,
            ["assemblyName"] = p.AssemblyName,
            ["filePath"] = p.FilePath,
            ["outputFilePath"] = p.OutputFilePath,
            ["outputRefFilePath"] = p.OutputRefFilePath,
            ["defaultNamespace"] = p.DefaultNamespace,
            ["documents"] = Paths(p.Documents.Select(d => d.FilePath)),
            ["additional"] = Paths(p.AdditionalDocuments.Select(d => d.FilePath)),
            ["analyzerConfigs"] = Paths(p.AnalyzerConfigDocuments.Select(d => d.FilePath)),
            ["metadata"] = new JsonArray(p.MetadataReferences.OfType<PortableExecutableReference>().Where(r => r.FilePath is not null).Select(r => (JsonNode)new JsonObject
            {
                ["path"] = r.FilePath,
                ["aliases"] = new JsonArray(r.Properties.Aliases.Select(a => (JsonNode)a).ToArray()),
                ["embed"] = r.Properties.EmbedInteropTypes,
            }).ToArray()),
            ["analyzers"] = Paths(p.AnalyzerReferences.Select(a => a.FullPath)),
            ["projectReferences"] = new JsonArray(p.ProjectReferences.Where(r => index.ContainsKey(r.ProjectId)).Select(r => (JsonNode)new JsonObject
            {
                ["index"] = index[r.ProjectId],
                ["aliases"] = new JsonArray(r.Aliases.Select(a => (JsonNode)a).ToArray()),
                ["embed"] = r.EmbedInteropTypes,
            }).ToArray()),
            ["compilation"] = new JsonObject
            {
                ["outputKind"] = (int)options.OutputKind,
                ["moduleName"] = options.ModuleName,
                ["mainTypeName"] = options.MainTypeName,
                ["optimization"] = (int)options.OptimizationLevel,
                ["checkOverflow"] = options.CheckOverflow,
                ["allowUnsafe"] = options.AllowUnsafe,
                ["platform"] = (int)options.Platform,
                ["generalDiagnostic"] = (int)options.GeneralDiagnosticOption,
                ["warningLevel"] = options.WarningLevel,
                ["specific"] = new JsonObject(options.SpecificDiagnosticOptions.Select(kv => KeyValuePair.Create(kv.Key, (JsonNode?)(int)kv.Value))),
                ["nullable"] = (int)options.NullableContextOptions,
                ["deterministic"] = options.Deterministic,
                ["publicSign"] = options.PublicSign,
                ["cryptoKeyFile"] = options.CryptoKeyFile,
                ["delaySign"] = options.DelaySign,
            },
            ["parse"] = new JsonObject
            {
                ["languageVersion"] = (int)parse.SpecifiedLanguageVersion,
                ["documentationMode"] = (int)parse.DocumentationMode,
                ["symbols"] = new JsonArray(parse.PreprocessorSymbolNames.Select(s => (JsonNode)s).ToArray()),
                ["features"] = new JsonObject(parse.Features.Select(kv => KeyValuePair.Create(kv.Key, (JsonNode?)kv.Value))),
            },
        };
    }

    private static ProjectInfo? ProjectFromJson(JsonObject p, ProjectId id, List<ProjectId> ids)
    {
        var c = p["compilation"]!.AsObject();
        var options = new CSharpCompilationOptions((OutputKind)c["outputKind"]!.GetValue<int>())
            .WithModuleName(c["moduleName"]?.GetValue<string>())
            .WithMainTypeName(c["mainTypeName"]?.GetValue<string>())
            .WithOptimizationLevel((OptimizationLevel)c["optimization"]!.GetValue<int>())
            .WithOverflowChecks(c["checkOverflow"]!.GetValue<bool>())
            .WithAllowUnsafe(c["allowUnsafe"]!.GetValue<bool>())
            .WithPlatform((Platform)c["platform"]!.GetValue<int>())
            .WithGeneralDiagnosticOption((ReportDiagnostic)c["generalDiagnostic"]!.GetValue<int>())
            .WithWarningLevel(c["warningLevel"]!.GetValue<int>())
            .WithSpecificDiagnosticOptions(c["specific"]!.AsObject().Select(kv => KeyValuePair.Create(kv.Key, (ReportDiagnostic)kv.Value!.GetValue<int>())))
            .WithNullableContextOptions((NullableContextOptions)c["nullable"]!.GetValue<int>())
            .WithDeterministic(c["deterministic"]!.GetValue<bool>())
            .WithPublicSign(c["publicSign"]!.GetValue<bool>())
            .WithCryptoKeyFile(c["cryptoKeyFile"]?.GetValue<string>())
            .WithDelaySign(c["delaySign"]?.GetValue<bool?>());
        var q = p["parse"]!.AsObject();
        var parse = new CSharpParseOptions(
                (LanguageVersion)q["languageVersion"]!.GetValue<int>(),
                (DocumentationMode)q["documentationMode"]!.GetValue<int>(),
                SourceCodeKind.Regular,
                Strings(q["symbols"]))
            .WithFeatures(q["features"]!.AsObject().Select(kv => KeyValuePair.Create(kv.Key, kv.Value!.GetValue<string>())));
        var documents = Documents(id, p["documents"]);
        var additional = Documents(id, p["additional"]);
        var configs = Documents(id, p["analyzerConfigs"]);
        if (documents is null || additional is null || configs is null) return null;
        var metadata = new List<MetadataReference>();
        foreach (var m in p["metadata"]!.AsArray())
        {
            var path = m!["path"]!.GetValue<string>();
            if (!File.Exists(path)) return null;
            var properties = MetadataReferenceProperties.Assembly.WithAliases(Strings(m["aliases"])).WithEmbedInteropTypes(m["embed"]!.GetValue<bool>());
            metadata.Add(MetadataReference.CreateFromFile(path, properties));
        }
        var analyzers = new List<AnalyzerReference>();
        foreach (var path in Strings(p["analyzers"]))
        {
            if (!File.Exists(path)) return null;
            analyzers.Add(new AnalyzerFileReference(path, AnalyzerLoader.Instance));
        }
        var references = p["projectReferences"]!.AsArray()
            .Select(r => new ProjectReference(ids[r!["index"]!.GetValue<int>()], Strings(r["aliases"]).ToImmutableArrayOrEmpty(), r["embed"]!.GetValue<bool>()));
        return ProjectInfo.Create(
                id,
                VersionStamp.Create(),
                p["name"]!.GetValue<string>(),
                p["assemblyName"]!.GetValue<string>(),
                LanguageNames.CSharp,
                filePath: p["filePath"]?.GetValue<string>(),
                outputFilePath: p["outputFilePath"]?.GetValue<string>(),
                compilationOptions: options,
                parseOptions: parse,
                documents: documents,
                projectReferences: references,
                metadataReferences: metadata,
                analyzerReferences: analyzers,
                additionalDocuments: additional)
            .WithAnalyzerConfigDocuments(configs)
            .WithOutputRefFilePath(p["outputRefFilePath"]?.GetValue<string>())
            .WithDefaultNamespace(p["defaultNamespace"]?.GetValue<string>());
    }

    private static List<DocumentInfo>? Documents(ProjectId project, JsonNode? paths)
    {
        var documents = new List<DocumentInfo>();
        foreach (var path in Strings(paths))
        {
            if (!File.Exists(path)) return null;
            documents.Add(DocumentInfo.Create(DocumentId.CreateNewId(project, path), Path.GetFileName(path), loader: new FileTextLoader(path, defaultEncoding: null), filePath: path));
        }
        return documents;
    }

    /** The C# files under a project's folder (bin/ and obj/ left out), sorted: the globbed sources. */
    private static IEnumerable<string> SourceFiles(string dir)
    {
        var found = new List<string>();
        var pending = new Stack<string>([dir]);
        while (pending.Count > 0)
        {
            var current = pending.Pop();
            found.AddRange(Directory.EnumerateFiles(current, "*.cs"));
            foreach (var sub in Directory.EnumerateDirectories(current))
            {
                var name = Path.GetFileName(sub);
                if (name is not ("bin" or "obj" or "node_modules") && !name.StartsWith('.')) pending.Push(sub);
            }
        }
        return found.Order(StringComparer.Ordinal);
    }

    private static string RuntimeEnvironment() =>
        $"{System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription}|{MSBuildPath}|{Environment.GetEnvironmentVariable("MSBuildExtensionsPath")}|{Environment.GetEnvironmentVariable("Configuration")}";

    private static JsonArray Paths(IEnumerable<string?> paths) => new(paths.OfType<string>().Select(p => (JsonNode)p).ToArray());

    private static List<string> Strings(JsonNode? node) => node?.AsArray().Select(n => n!.GetValue<string>()).ToList() ?? [];

    private static string Hash(string text) => Hash(Encoding.UTF8.GetBytes(text));

    private static string Hash(byte[] bytes) => Convert.ToHexString(SHA256.HashData(bytes));

    private static System.Collections.Immutable.ImmutableArray<string> ToImmutableArrayOrEmpty(this List<string> list) => [.. list];

    /**
     * Loads analyzers and generators into this process, one load context per folder (two target
     * frameworks' generators share assembly names), their dependencies from beside them, and the
     * compiler's own assemblies from the engine's.
     */
    private sealed class AnalyzerLoader : IAnalyzerAssemblyLoader
    {
        public static readonly AnalyzerLoader Instance = new();
        private readonly Dictionary<string, FolderContext> contexts = new(StringComparer.Ordinal);

        public void AddDependencyLocation(string fullPath)
        {
        }

        public Assembly LoadFromPath(string fullPath)
        {
            var dir = Path.GetDirectoryName(fullPath)!;
            FolderContext context;
            lock (contexts)
            {
                if (!contexts.TryGetValue(dir, out context!)) contexts[dir] = context = new FolderContext(dir);
            }
            return context.LoadFromAssemblyPath(fullPath);
        }

        private sealed class FolderContext(string dir) : AssemblyLoadContext($"analyzers:{dir}")
        {
            protected override Assembly? Load(AssemblyName name)
            {
                if (name.Name is null || name.Name.StartsWith("Microsoft.CodeAnalysis", StringComparison.Ordinal) || name.Name.StartsWith("System.", StringComparison.Ordinal)) return null;
                var candidate = Path.Combine(dir, $"{name.Name}.dll");
                return File.Exists(candidate) ? LoadFromAssemblyPath(candidate) : null;
            }
        }
    }
}
