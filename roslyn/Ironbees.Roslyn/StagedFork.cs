// The warm solution with the coder's staged edits applied, for symbol questions asked while edits
// are staged but not written: the model sees staged text in read_file, so positions and names it
// asks about are in that text. The last fork is kept while the same edits are asked about again
// (a tool loop asks several questions between edits), so its compilations are reused.
using System.Security.Cryptography;
using System.Text;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace Ironbees.Roslyn;

internal sealed class StagedFork
{
    private string? lastKey;
    private Solution? lastBase;
    private Solution? lastFork;

    /** `files`: [{ "path": rel, "text": string or null (deleted) }]; none gives the solution as it is. */
    public Solution Apply(Solution disk, PathMap paths, JsonArray? files)
    {
        if (files is null || files.Count == 0) return disk;
        var key = KeyOf(files);
        if (key == lastKey && ReferenceEquals(disk, lastBase) && lastFork is not null) return lastFork;
        var fork = disk;
        foreach (var file in files)
        {
            var rel = file?["path"]?.GetValue<string>() ?? throw new EngineException("Each staged file needs a path.");
            var text = file["text"]?.GetValue<string>();
            fork = Overlay.WithText(fork, paths, rel, text is null ? null : SourceText.From(text));
        }
        (lastKey, lastBase, lastFork) = (key, disk, fork);
        return fork;
    }

    /** The disk moved or the solution was reopened: the fork is of an older solution. */
    public void Clear() => (lastKey, lastBase, lastFork) = (null, null, null);

    private static string KeyOf(JsonArray files)
    {
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        foreach (var file in files)
        {
            hash.AppendData(Encoding.UTF8.GetBytes(file?["path"]?.GetValue<string>() ?? ""));
            hash.AppendData([0]);
            var text = file?["text"]?.GetValue<string>();
            hash.AppendData(text is null ? [1] : Encoding.UTF8.GetBytes(text));
            hash.AppendData([0]);
        }
        return Convert.ToHexString(hash.GetHashAndReset());
    }
}
