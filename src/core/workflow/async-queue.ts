// A small push/pull queue: the actor pushes states as they happen, the caller pulls them with
// for-await at its own pace (it may stop to ask a person at a gate).

export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | null = null;
  private failWaiting: ((error: unknown) => void) | null = null;
  private closed = false;
  private failure: { error: unknown } | null = null;

  push(item: T): void {
    if (this.closed) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      this.failWaiting = null;
      resolve({ value: item, done: false });
    } else {
      this.items.push(item);
    }
  }

  close(): void {
    this.closed = true;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      this.failWaiting = null;
      resolve({ value: undefined, done: true });
    }
  }

  fail(error: unknown): void {
    this.failure = { error };
    this.closed = true;
    if (this.failWaiting) {
      const reject = this.failWaiting;
      this.waiting = null;
      this.failWaiting = null;
      reject(error);
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: (): Promise<IteratorResult<T>> => {
        if (this.items.length) return Promise.resolve({ value: this.items.shift() as T, done: false });
        if (this.failure) return Promise.reject(this.failure.error);
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => {
          this.waiting = resolve;
          this.failWaiting = reject;
        });
      },
    };
  }
}
