// Loaded by mocha before every suite (.mocharc.json "require"). The Roslyn engine is off unless a
// suite turns it on (IRONBEES_ROSLYN=1): loading a solution costs 20-60 s on CI's two cores, and
// suites about other things (scripted runs, tools on temp workspaces) would pay it on every
// workspace they create. The engine's own suites (test/integration/roslyn-*.test.ts) opt in.
process.env.IRONBEES_ROSLYN ??= '0';
// The `dotnet --version` cache (src/core/dotnet/sdk-cache.ts) is off: many suites answer for dotnet with
// a scripted runner, and a version cached from the real SDK must not stand in for their answers. The
// cache's own tests, and the CLI runs that measure it, turn it on.
process.env.IRONBEES_SDK_CACHE ??= '0';
// The C# engine's warm-start cache (roslyn/Ironbees.Roslyn/WarmCache.cs) goes to a folder of this
// test process, not the user's cache folder; suites that measure it name their own.
process.env.IRONBEES_ROSLYN_CACHE ??= require('node:path').join(require('node:os').tmpdir(), `ironbees-roslyn-cache-${process.pid}`);
