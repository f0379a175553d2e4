// Zod schemas (the tools' inputs, the staged overlay's file format), made on their first use, and
// zod itself loaded then. Loading zod and building the schemas is a few milliseconds of a CLI start
// that shows nothing yet; a run first needs them once the baseline's dotnet build is running
// (workflow/tool-warmup.ts makes them then) or at a tool's first call. A tool definition reads its
// schema through a getter, so `def.input` keeps its type and meaning. Modules that only describe a
// schema import zod's types alone (`import type`) and reach zod's functions through here: a value
// import of 'zod' anywhere a start loads would load zod at the start again (the bundle turns the
// `require` below into zod's initialisation on first call).

import type * as Zod from 'zod';

/** Zod's `z` namespace, loaded on the first call. */
export function loadZod(): typeof Zod.z {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- on first use, not at start (see above)
  return (require('zod') as typeof Zod).z;
}

let made = 0;

/** `make(z)`, called once on the first call of the returned function; the schema is kept for the process. */
export function lazySchema<T extends Zod.ZodType>(make: (z: typeof Zod.z) => T): () => T {
  let schema: T | undefined;
  return () => {
    if (!schema) {
      schema = make(loadZod());
      made += 1;
    }
    return schema;
  };
}

/** How many lazy schemas this process has made so far (tests check a start makes none). */
export function lazySchemasMade(): number {
  return made;
}
