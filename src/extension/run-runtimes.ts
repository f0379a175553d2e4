// The runtimes that drive a folder's runs: built on first use (not cached when the build fails, so
// fixing the cause and retrying works), replaced when settings or the key change, and the replaced
// ones closed (their MCP servers stopped) once no run uses them.

import type { Logger } from '../core/host';
import { errorMessage } from '../core/errors';
import type { ExtensionRuntime } from './runtime';

export class RunRuntimes {
  private runtime: Promise<ExtensionRuntime> | null = null;
  /** Runtimes replaced after a settings change, closed once no run uses them. */
  private retired: Array<Promise<ExtensionRuntime>> = [];

  /** `build` makes the folder's runtime; `live` says whether a run is followed, which keeps the retired runtimes open. */
  constructor(
    private readonly build: () => Promise<ExtensionRuntime>,
    private readonly live: () => boolean,
    private readonly logger: Logger,
  ) {}

  /** The folder's runtime, built on first use. */
  get(): Promise<ExtensionRuntime> {
    if (!this.runtime) {
      const building = this.build();
      this.runtime = building;
      // A failed build (no key, no dotnet) is not cached: fixing the cause and retrying must work.
      building.catch(() => {
        if (this.runtime === building) this.runtime = null;
      });
    }
    return this.runtime;
  }

  /** Settings or the key changed: the next run builds a fresh runtime (a live run keeps its own). */
  invalidate(): void {
    if (this.runtime) this.retired.push(this.runtime);
    this.runtime = null;
    void this.closeRetired();
  }

  /** Stops the MCP servers of replaced runtimes; a live run keeps its runtime until it ends. */
  async closeRetired(): Promise<void> {
    if (this.live()) return;
    const retired = this.retired;
    this.retired = [];
    for (const runtime of retired) {
      await runtime.then((built) => built.close()).catch((error: unknown) => this.logger.warn(`Stopping MCP servers: ${errorMessage(error)}`));
    }
  }
}
