// Whether and where runs are exported as OpenTelemetry traces, and the lazy hook-up. Off unless an
// OTLP endpoint is set: the person's setting ("ironbees.telemetry.otlpEndpoint", user scope only: a
// repository must not send a run's trace elsewhere) or the standard variables
// (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT). When off, nothing of
// OpenTelemetry is loaded; when on, otlp-spans.ts is imported on the first event of a run.

import type { Logger } from '../../host';
import { errorMessage } from '../../errors';
import type { TraceEvent } from '../../trace';
import type { RunStore } from '../../workflow/store';

/** The events that become spans or span events (otlp-spans.ts); the others are in the turns already. */
const EXPORTED_KINDS: ReadonlySet<string> = new Set(['transition', 'turn', 'agent_timeout', 'agent_restarted']);

export interface TraceExportConfig {
  /** The setting's value: a base URL (…:4318), "/v1/traces" is added. Empty or absent: the environment decides. */
  otlpEndpoint?: string;
  env: NodeJS.ProcessEnv;
  serviceVersion: string;
}

/** The OTLP/HTTP traces URL to send to, or null when export is off (nothing set, or OTEL_SDK_DISABLED=true). */
export function otlpTracesUrl(config: Pick<TraceExportConfig, 'otlpEndpoint' | 'env'>): string | null {
  if (config.env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const base = (value: string | undefined): string | null => (value?.trim() ? `${value.trim().replace(/\/+$/, '')}/v1/traces` : null);
  const url =
    base(config.otlpEndpoint) ??
    (config.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || null) ??
    base(config.env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (url === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`The OTLP endpoint "${url}" is not a URL.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`The OTLP endpoint "${url}" must be http:// or https://.`);
  return url;
}

export interface TraceExport {
  /** Sends what was recorded and ends spans still open; resolves when the collector answered or gave up. */
  flush(): Promise<void>;
  /** Stops listening to the store. */
  stop(): void;
}

interface SpansModule {
  record(runId: string, event: TraceEvent): void;
  flush(): Promise<void>;
}

/** Listens to the store's events and exports them to `url`; OpenTelemetry loads with the first event. */
export function startTraceExport(store: RunStore, url: string, config: TraceExportConfig, logger: Logger): TraceExport {
  let spans: Promise<SpansModule | null> | null = null;
  const load = (): Promise<SpansModule | null> =>
    (spans ??= import('./otlp-spans.js')
      .then(({ OtlpRunSpans }) => {
        logger.info(`Exporting run traces to ${url} (OTLP/HTTP).`);
        return new OtlpRunSpans({ url, serviceVersion: config.serviceVersion });
      })
      .catch((error) => {
        logger.warn(`Trace export is off: OpenTelemetry could not load (${errorMessage(error)}).`);
        return null;
      }));
  // Events are handed over in the order they came, also while the module is still loading.
  let chain: Promise<void> = Promise.resolve();
  const stop = store.observe((runId, event) => {
    if (!EXPORTED_KINDS.has(event.kind)) return;
    chain = chain.then(async () => (await load())?.record(runId, event));
  });
  return {
    flush: async () => {
      if (!spans) return;
      await chain;
      await (await spans)?.flush().catch((error) => logger.debug(`Trace export: ${errorMessage(error)}`));
    },
    stop,
  };
}
