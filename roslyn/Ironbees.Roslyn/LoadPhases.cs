// Where a solution load spends its time, from MSBuildWorkspace's progress reports: the time before
// the first project finished (the build host starting, MSBuild's SDK resolution), and the summed
// time of each operation (Evaluate, Build = the design-time build, Resolve = references) over all
// projects. The client logs it; the bench prints it, so a slow load says which part was slow.
using System.Diagnostics;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis.MSBuild;

namespace Ironbees.Roslyn;

internal sealed class LoadPhases(Stopwatch clock) : IProgress<ProjectLoadProgress>
{
    private readonly object gate = new();
    private readonly Dictionary<string, TimeSpan> sums = [];
    private long firstMs = -1;
    private long lastMs;

    public void Report(ProjectLoadProgress value)
    {
        lock (gate)
        {
            var now = clock.ElapsedMilliseconds;
            if (firstMs < 0) firstMs = now;
            lastMs = now;
            var key = value.Operation.ToString();
            sums[key] = sums.GetValueOrDefault(key) + value.ElapsedTime;
        }
    }

    public JsonObject ToJson()
    {
        lock (gate)
        {
            var result = new JsonObject { ["firstProjectMs"] = firstMs, ["lastProjectMs"] = lastMs };
            foreach (var (operation, time) in sums) result[$"{char.ToLowerInvariant(operation[0])}{operation[1..]}Ms"] = (long)time.TotalMilliseconds;
            return result;
        }
    }
}
