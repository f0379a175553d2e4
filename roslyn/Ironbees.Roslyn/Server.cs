// Newline-delimited JSON-RPC over stdio: one request object per line in
// ({"id":1,"method":"references","params":{...}}), one response per line out
// ({"id":1,"result":...} or {"id":1,"error":{"message":"..."}}).
//
// Why not MCP: the engine has one client, Ironbees' own TypeScript, which already exposes these
// answers to other agents through `ironbees mcp` (with containment, paging and the text-index
// fallback). A second MCP surface would duplicate that, and MCP's handshake, schemas and
// content wrapping cost startup time and bytes on every call for no reader who needs them.
// Requests are handled one at a time, in order: the workspace is a single mutable solution and
// ordering keeps "update then query" exact without locks.
using System.Text.Json;
using System.Text.Json.Nodes;

namespace Ironbees.Roslyn;

internal sealed class Server(TextReader input, TextWriter output, string fault)
{
    private readonly Engine engine = new();

    public async Task<int> RunAsync()
    {
        // Lines are read apart from their handling so that stdin closing ends the engine at once,
        // even in the middle of a long load: the client (which sets IRONBEES_ENGINE_CLIENT) is gone
        // or done, and nobody reads answers. Run by hand, queued requests are answered first.
        var lines = System.Threading.Channels.Channel.CreateUnbounded<string>();
        var underClient = Environment.GetEnvironmentVariable("IRONBEES_ENGINE_CLIENT") == "1";
        _ = Task.Run(async () =>
        {
            while (await input.ReadLineAsync() is { } read) await lines.Writer.WriteAsync(read);
            if (underClient) Environment.Exit(0);
            lines.Writer.Complete();
        });
        await foreach (var line in lines.Reader.ReadAllAsync())
        {
            if (line.Length == 0) continue;
            JsonNode? id = null;
            try
            {
                var request = JsonNode.Parse(line)!.AsObject();
                id = request["id"]?.DeepClone();
                var method = request["method"]?.GetValue<string>() ?? "";
                var args = request["params"] as JsonObject ?? new JsonObject();
                if (fault == "crash-on-request" && method != "ping") Environment.Exit(4);
                if (fault == "crash-once" && method != "ping" && FirstTime()) Environment.Exit(4);
                if (fault == "hang-on-request" && method != "ping") await Task.Delay(Timeout.Infinite);
                if (method == "shutdown")
                {
                    Write(new JsonObject { ["id"] = id, ["result"] = true });
                    return 0;
                }
                var result = await engine.HandleAsync(method, args);
                Write(new JsonObject { ["id"] = id, ["result"] = result });
            }
            catch (Exception e)
            {
                var message = e is EngineException ? e.Message : $"{e.GetType().Name}: {e.Message}";
                Write(new JsonObject { ["id"] = id, ["error"] = new JsonObject { ["message"] = message } });
            }
        }
        return 0;
    }

    /** For crash-once: true the first time across processes, marked by the file IRONBEES_ROSLYN_FAULT_MARK. */
    private static bool FirstTime()
    {
        var mark = Environment.GetEnvironmentVariable("IRONBEES_ROSLYN_FAULT_MARK");
        if (string.IsNullOrEmpty(mark) || File.Exists(mark)) return false;
        File.WriteAllText(mark, "crashed once");
        return true;
    }

    private void Write(JsonObject response)
    {
        output.Write(response.ToJsonString(new JsonSerializerOptions { WriteIndented = false }));
        output.Write('\n');
        output.Flush();
    }
}

/** An error whose message is meant for the person or the model as it is. */
internal sealed class EngineException(string message) : Exception(message);
