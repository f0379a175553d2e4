// Preloaded into a measured `ironbees` process (`node -r`): at exit, writes the process's own CPU time
// (user + system, its children excluded) to IRONBEES_BENCH_CPU_FILE. Time that overlaps a child's work
// still counts here, so this figure cannot be lowered by moving work into a timed span.
const fs = require('node:fs');

const file = process.env.IRONBEES_BENCH_CPU_FILE;
if (file) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    fs.writeFileSync(file, JSON.stringify({ userUs: user, systemUs: system }));
  });
}
