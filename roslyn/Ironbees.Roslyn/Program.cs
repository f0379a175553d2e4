// The Roslyn engine's entry point: registers the SDK's MSBuild, then serves requests from stdin
// until stdin closes (the client's process ended, or it asked us to stop). Stdout carries only
// protocol lines; logs go to stderr.
using Ironbees.Roslyn;
using Microsoft.Build.Locator;

// Test hooks (documented in roslyn/README.md): they make the engine fail the way a real one can,
// so the client's crash and hang handling is tested against a real process.
var fault = Environment.GetEnvironmentVariable("IRONBEES_ROSLYN_FAULT") ?? "";
if (fault == "crash-on-start") return 3;

if (!MSBuildLocator.IsRegistered)
{
    // The SDK that runs us is the one whose MSBuild evaluates the user's projects.
    WarmCache.MSBuildPath = MSBuildLocator.RegisterDefaults().MSBuildPath;
}

var server = new Server(Console.In, Console.Out, fault);
return await server.RunAsync();
