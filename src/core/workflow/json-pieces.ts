// JSON text in pieces, for files written once and big (a validation's full results: 500 failures are
// ~3 MB of JSON). JSON.stringify would make the whole text as one string, and writing it one buffer of
// the same size, both at the run's peak of memory; the pieces are written as they are made.

/** Pieces are joined up to about this many characters (V8 keeps strings under ~128 KB out of its large-object space, which only a full collection frees). */
const PIECE_CHARS = 16 * 1024;

/**
 * Exactly `JSON.stringify(value)` (no indent, no replacer), given in pieces. For plain data: arrays and
 * objects are walked, anything else is stringified whole; a cycle overflows the stack instead of
 * naming itself as JSON.stringify does.
 */
export function* jsonPieces(value: unknown): Generator<string> {
  let pending = '';
  for (const part of partsOf(jsonValueOf(value, ''))) {
    pending += part;
    if (pending.length >= PIECE_CHARS) {
      yield pending;
      pending = '';
    }
  }
  if (pending !== '') yield pending;
}

/** What JSON.stringify turns the value into before writing it: toJSON's answer, boxed primitives unboxed. */
function jsonValueOf(value: unknown, key: string): unknown {
  const withToJson = value as { toJSON?: (key: string) => unknown } | null;
  const answered = typeof withToJson?.toJSON === 'function' ? withToJson.toJSON(key) : value;
  return answered instanceof Number || answered instanceof String || answered instanceof Boolean ? answered.valueOf() : answered;
}

/** True for what JSON.stringify leaves out of an object (and writes as null in an array). */
function isUnwritable(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** The parts of a value already through jsonValueOf. */
function* partsOf(value: unknown): Generator<string> {
  if (Array.isArray(value)) {
    yield '[';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) yield ',';
      const item = jsonValueOf(value[index], String(index));
      if (isUnwritable(item)) yield 'null';
      else yield* partsOf(item);
    }
    yield ']';
    return;
  }
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value) as string | undefined;
    if (text !== undefined) yield text;
    return;
  }
  yield '{';
  let first = true;
  for (const [name, member] of Object.entries(value)) {
    const item = jsonValueOf(member, name);
    if (isUnwritable(item)) continue;
    yield `${first ? '' : ','}${JSON.stringify(name)}:`;
    first = false;
    yield* partsOf(item);
  }
  yield '}';
}
