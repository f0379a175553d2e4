// Questions on stderr, answers from stdin, one line each. Piped lines are queued as they arrive
// rather than read with readline's question(): piped answers (tests, scripts) often arrive all at
// once, before the question is asked, and question() would drop them.

import type * as readline from 'node:readline';

/** The answer stream ended (EOF) or the person pressed Ctrl-C at a prompt: treat it as an interrupt. */
export class PromptClosedError extends Error {
  constructor(readonly reason: 'eof' | 'interrupt') {
    super(reason === 'eof' ? 'No more answers on stdin (end of input).' : 'Interrupted at a prompt.');
    this.name = 'PromptClosedError';
  }
}

export interface Prompter {
  /** Asks and resolves with the answer line, trimmed. Rejects with PromptClosedError on EOF or Ctrl-C. */
  ask(question: string): Promise<string>;
}

export interface LinePrompterOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** A terminal gets line editing, and Ctrl-C at a prompt reaches `onInterrupt`. */
  terminal: boolean;
  /** In a terminal, readline swallows Ctrl-C while it reads; this hands it on. */
  onInterrupt?: () => void;
}

interface Waiter {
  resolve: (line: string) => void;
  reject: (error: PromptClosedError) => void;
}

export class LinePrompter implements Prompter {
  private rl: readline.Interface | null = null;
  private readonly lines: string[] = [];
  private waiter: Waiter | null = null;
  private closedBy: PromptClosedError | null = null;

  constructor(private readonly options: LinePrompterOptions) {}

  ask(question: string): Promise<string> {
    this.open();
    if (this.options.terminal && this.rl) {
      this.rl.setPrompt(question);
      this.rl.prompt();
    } else {
      this.options.output.write(question);
    }
    const queued = this.lines.shift();
    if (queued !== undefined) {
      if (!this.options.terminal) this.options.output.write(`${queued.trim()}\n`);
      return Promise.resolve(queued.trim());
    }
    if (this.closedBy) return Promise.reject(this.closedBy);
    return new Promise<string>((resolve, reject) => {
      this.waiter = { resolve: (line) => resolve(line.trim()), reject };
    });
  }

  /** Rejects the pending question (Ctrl-C arrived from outside readline). */
  cancel(): void {
    this.finish(new PromptClosedError('interrupt'));
  }

  /** Releases stdin so the process can end. */
  close(): void {
    const rl = this.rl;
    this.rl = null;
    rl?.close();
  }

  /** Opened on the first question only, so runs with --yes never touch stdin. */
  private open(): void {
    if (this.rl || this.closedBy) return;
    // node:readline loads with the first question: a run with --yes never needs it.
    const rl = process.getBuiltinModule('node:readline').createInterface({
      input: this.options.input,
      output: this.options.terminal ? this.options.output : undefined,
      terminal: this.options.terminal,
    });
    rl.on('line', (line) => {
      const waiter = this.waiter;
      if (waiter) {
        this.waiter = null;
        if (!this.options.terminal) this.options.output.write(`${line.trim()}\n`);
        waiter.resolve(line);
      } else if (!this.options.terminal) {
        this.lines.push(line);
      }
      // In a terminal, a line typed while no question is asked (an Enter pressed during a long
      // build) is dropped: typed-ahead keys must not answer a question the person has not seen.
    });
    rl.on('close', () => {
      if (this.rl === rl) this.rl = null;
      this.finish(new PromptClosedError('eof'));
    });
    rl.on('SIGINT', () => {
      this.finish(new PromptClosedError('interrupt'));
      this.options.onInterrupt?.();
    });
    this.rl = rl;
  }

  private finish(reason: PromptClosedError): void {
    if (!this.closedBy) this.closedBy = reason;
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.reject(reason);
  }
}
