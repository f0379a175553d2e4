// Counts the functions compiled from source text (`new Function(...)`, as zod's fast path does)
// while `work` runs: the way a test sees that a parse took the interpreted path.

export async function functionsCompiledDuring(work: () => unknown): Promise<number> {
  const original = globalThis.Function;
  let compiled = 0;
  globalThis.Function = new Proxy(original, {
    construct(target, args: string[]) {
      compiled += 1;
      return Reflect.construct(target, args) as object;
    },
    apply(target, self, args: string[]) {
      compiled += 1;
      return Reflect.apply(target, self, args) as unknown;
    },
  });
  try {
    await work();
  } finally {
    globalThis.Function = original;
  }
  return compiled;
}
