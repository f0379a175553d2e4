// A zod schema (a tool's input, a file format), made on its first use. Building zod schemas is a few milliseconds of a CLI
// start that shows nothing yet; a run first needs them once the baseline's dotnet build is running
// (workflow/tool-warmup.ts makes the model-facing schemas then) or at a tool's first call. A tool
// definition reads its schema through a getter, so `def.input` keeps its type and meaning.

import type { ZodType } from 'zod';

let made = 0;

/** `make`, called once on the first call of the returned function; the schema is kept for the process. */
export function lazySchema<T extends ZodType>(make: () => T): () => T {
  let schema: T | undefined;
  return () => {
    if (!schema) {
      schema = make();
      made += 1;
    }
    return schema;
  };
}

/** How many lazy schemas this process has made so far (tests check a start makes none). */
export function lazySchemasMade(): number {
  return made;
}
