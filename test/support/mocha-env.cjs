// Loaded by mocha before every suite (.mocharc.json "require"). The Roslyn engine is off unless a
// suite turns it on (IRONBEES_ROSLYN=1): loading a solution costs 20-60 s on CI's two cores, and
// suites about other things (scripted runs, tools on temp workspaces) would pay it on every
// workspace they create. The engine's own suites (test/integration/roslyn-*.test.ts) opt in.
process.env.IRONBEES_ROSLYN ??= '0';
