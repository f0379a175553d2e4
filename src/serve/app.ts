// The served API's routes (Hono): health, runs (start, list, state, live events, gates, cancel,
// resume), metrics and the web page. Every route but /healthz and /login needs the bearer token or
// a browser session; a request from another site's page (a foreign Origin) is refused first.

import { Hono } from 'hono';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getCookie, setCookie } from 'hono/cookie';
import { streamSSE } from 'hono/streaming';
import type { z } from 'zod';
import type { ApprovalDecision, WorkflowNode } from '../core/model';
import {
  AgentModeError,
  ConfigurationError,
  InvalidStateError,
  OrchestratorError,
  StateNotFoundError,
  WorkspaceBusyError,
  errorMessage,
} from '../core/errors';
import { SESSION_COOKIE, bearerOf, originAllowed, tokenMatches, workspaceInRoots } from './access';
import type { Sessions } from './access';
import type { RunHub } from './runs';
import type { ServeMetrics } from './metrics';
import { diffsBody, diffsDecision, escalationBody, escalationDecision, planBody, planDecision, startBody } from './routes-schemas';
import type { WebPage } from './web-page';
import type { PanelFeed } from './panel';
import { webviewMessageSchema } from '../shared/protocol';
import type { ExtensionMessage } from '../shared/protocol';

export interface ServeAppDeps {
  token: string;
  roots: readonly string[];
  origins: ReadonlySet<string>;
  sessions: Sessions;
  hub: RunHub;
  metrics: ServeMetrics;
  page?: WebPage;
  /** The web page's panel protocol over SSE + POST. */
  panel?: PanelFeed;
  /** Largest request body accepted (default 1 MiB). */
  maxBodyBytes?: number;
  /** Seconds between SSE keep-alive comments (default 15). */
  keepAliveSeconds?: number;
}

type Status = 400 | 401 | 403 | 404 | 409 | 413 | 500;

function fail(c: Context, status: Status, error: string): Response {
  return c.json({ error }, status);
}

function statusOf(error: unknown): Status {
  if (error instanceof StateNotFoundError) return 404;
  if (error instanceof InvalidStateError || error instanceof WorkspaceBusyError || error instanceof OrchestratorError) return 409;
  if (error instanceof ConfigurationError) return 400;
  if (error instanceof AgentModeError) return 400;
  return 500;
}

async function parsed<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S> | Response> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    return fail(c, 400, 'The body must be JSON.');
  }
  const result = schema.safeParse(raw);
  if (!result.success) return fail(c, 400, result.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  return result.data;
}

export function createServeApp(deps: ServeAppDeps): Hono {
  const app = new Hono();
  const maxBody = deps.maxBodyBytes ?? 1024 * 1024;

  // Another site's page may make a browser send requests here: refused whatever they carry.
  app.use('*', async (c, next) => {
    if (!originAllowed(c.req.header('origin'), deps.origins)) return fail(c, 403, 'Foreign Origin.');
    await next();
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
  });

  app.get('/healthz', (c) => c.json({ ok: true, activeRuns: deps.hub.activeRuns }));

  // The one-time login URL: spends its code, opens a browser session, and takes the code out of the address bar.
  app.get('/login', (c) => {
    const session = deps.sessions.redeem(c.req.query('code') ?? '');
    if (!session) return c.text('This login link is unknown, used or expired. Ask ironbees serve for a new one.', 401);
    setCookie(c, SESSION_COOKIE, session, { httpOnly: true, sameSite: 'Strict', path: '/' });
    return c.redirect('/', 303);
  });

  const authorised = (c: Context): boolean => {
    const bearer = bearerOf(c.req.header('authorization'));
    if (bearer !== null) return tokenMatches(bearer, deps.token);
    return deps.sessions.has(getCookie(c, SESSION_COOKIE));
  };
  for (const prefix of ['/api/*', '/metrics', '/', '/assets/*']) {
    app.use(prefix, async (c, next) => {
      if (!authorised(c)) {
        c.header('WWW-Authenticate', 'Bearer');
        return c.req.path === '/' ? c.text('Open the one-time login URL that ironbees serve printed.', 401) : fail(c, 401, 'Unauthorised.');
      }
      await next();
    });
  }
  app.use('/api/*', bodyLimit({ maxSize: maxBody, onError: (c) => fail(c, 413, `The body is over ${maxBody} bytes.`) }));

  app.onError((error, c) => {
    const status = statusOf(error);
    return fail(c, status, status === 500 ? `Internal error: ${errorMessage(error)}` : errorMessage(error));
  });

  app.get('/metrics', async (c) => c.body(await deps.metrics.text(), 200, { 'content-type': deps.metrics.contentType }));

  app.post('/api/login-codes', (c) => {
    const url = new URL(c.req.url);
    return c.json({ url: `${url.origin}/login?code=${deps.sessions.newCode()}` }, 201);
  });

  app.post('/api/runs', async (c) => {
    const body = await parsed(c, startBody);
    if (body instanceof Response) return body;
    const check = await workspaceInRoots(body.workspace, deps.roots);
    if (!check.ok) return fail(c, check.status, check.error);
    const runId = await deps.hub.start(check.workspace, body.request, body.options);
    return c.json({ runId }, 201);
  });

  app.get('/api/runs', async (c) => c.json({ runs: await deps.hub.list() }));

  app.get('/api/runs/:id', async (c) => c.json(await deps.hub.state(c.req.param('id'))));

  app.post('/api/runs/:id/resume', async (c) => c.json({ runId: await deps.hub.resume(c.req.param('id')) }, 202));

  app.post('/api/runs/:id/cancel', async (c) => {
    const state = await deps.hub.cancel(c.req.param('id'));
    return c.json({ runId: state.stateId, currentNode: state.currentNode });
  });

  const gate = <S extends z.ZodType>(
    name: string,
    node: WorkflowNode,
    schema: S,
    decide: (body: z.output<S>) => ApprovalDecision,
  ): void => {
    app.post(`/api/runs/:id/${name}`, async (c) => {
      const body = await parsed(c, schema);
      if (body instanceof Response) return body;
      const decision = decide(body);
      await deps.hub.answer(c.req.param('id'), node, decision);
      return c.json({ runId: c.req.param('id'), decision: decision.type });
    });
  };
  gate('plan', 'WAIT_PLAN_APPROVAL', planBody, planDecision);
  gate('diffs', 'WAIT_DIFF_APPROVAL', diffsBody, diffsDecision);
  gate('escalation', 'WAIT_HUMAN', escalationBody, escalationDecision);

  // One `state` event per change (the whole CodingState), `activity` events between; ids resume a follower.
  app.get('/api/runs/:id/events', async (c) => {
    const channel = await deps.hub.channel(c.req.param('id'));
    const lastEventId = c.req.header('last-event-id') ?? c.req.query('lastEventId');
    return streamSSE(c, async (stream) => {
      const queue = channel.since(lastEventId);
      let wake: (() => void) | null = null;
      let ended = false;
      const unsubscribe = channel.subscribe(
        (event) => {
          queue.push(event);
          wake?.();
        },
        () => {
          ended = true;
          wake?.();
        },
      );
      stream.onAbort(() => {
        ended = true;
        wake?.();
      });
      const keepAlive = setInterval(() => void stream.write(': keep-alive\n\n'), (deps.keepAliveSeconds ?? 15) * 1000);
      try {
        for (;;) {
          while (queue.length && !stream.aborted) await stream.writeSSE(queue.shift()!);
          if (ended || stream.aborted) break;
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
        }
      } finally {
        clearInterval(keepAlive);
        unsubscribe();
      }
    });
  });

  const panel = deps.panel;
  if (panel) {
    // The page's messages, checked like the editor checks its webview's.
    app.post('/api/panel', async (c) => {
      const message = await parsed(c, webviewMessageSchema);
      if (message instanceof Response) return message;
      const replies: ExtensionMessage[] = [];
      await panel.handle(message, (reply) => replies.push(reply));
      return c.json({ replies });
    });
    app.get('/api/panel/events', (c) =>
      streamSSE(c, async (stream) => {
        const queue: ExtensionMessage[] = [];
        let wake: (() => void) | null = null;
        const push = (message: ExtensionMessage): void => {
          queue.push(message);
          wake?.();
        };
        const unfollow = panel.follow(push);
        stream.onAbort(() => wake?.());
        const keepAlive = setInterval(() => void stream.write(': keep-alive\n\n'), (deps.keepAliveSeconds ?? 15) * 1000);
        try {
          await panel.snapshot(push);
          while (!stream.aborted) {
            while (queue.length && !stream.aborted) await stream.writeSSE({ data: JSON.stringify(queue.shift()) });
            if (stream.aborted) break;
            await new Promise<void>((resolve) => (wake = resolve));
            wake = null;
          }
        } finally {
          clearInterval(keepAlive);
          unfollow();
        }
      }),
    );
  }

  app.get('/api/runs/:id/handoff', async (c) => {
    const text = await deps.hub.handoff(c.req.param('id'));
    return text === null
      ? fail(c, 404, 'The run has no hand-off yet.')
      : c.body(text, 200, { 'content-type': 'text/markdown; charset=utf-8' });
  });

  deps.page?.mount(app);
  return app;
}
