// Why the engine cannot answer. Every caller turns this into a fallback (the text index, or a
// review without the pre-check), never into a failed run.

export class EngineUnavailableError extends Error {
  constructor(
    message: string,
    /** 'crash' and 'hang' may be worth one restart; 'load' (the solution does not open) is not. */
    readonly reason: 'missing' | 'crash' | 'hang' | 'load' | 'stopped',
  ) {
    super(message);
    this.name = 'EngineUnavailableError';
  }
}

/** The engine answered, with an error about this request (a bad position, an unknown file). */
export class EngineRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineRequestError';
  }
}
