import type { FastifyInstance } from 'fastify';
import { restartError } from '../inference/restart.js';
import { sendWhileDraining } from './body-limit.js';
import { errorBody } from './error-envelope.js';

const IDLE_SWEEP_MS = 100;

/** The restart drain of one app: see `registerDrain`. */
export interface Drain {
  /** From now on every new request, on a new connection or a kept-alive one, gets the restart 503. */
  begin(): void;
  /** Resolves once no request is in flight, or when `graceMs` has passed, whichever comes first. */
  settled(graceMs: number): Promise<void>;
  /** Whether the drain has begun (readiness reports it). */
  readonly active: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    drain: Drain;
  }
}

/**
 * While the instance drains for a restart it still accepts connections, and every new request is
 * answered 503 with `Retry-After: 5` and `X-Should-Retry: true` (a restart: repeating is correct) and
 * `Connection: close`; requests in flight finish, or, past the drain grace (`Services.restart`), end
 * with the same 503, in-band when their stream had opened. The runtime stops listening once nothing
 * is in flight or the grace has passed (runtime/gateway.ts); from then on connections are closed as
 * soon as they are idle. The operator routes keep answering: `/readyz` then says the instance drains.
 */
export function registerDrain(app: FastifyInstance): void {
  let draining = false;
  const inFlight = new InFlight();
  app.server.on('request', (_incoming, response) => inFlight.track(response));
  app.decorate('drain', {
    begin: () => {
      draining = true;
    },
    settled: (graceMs) => inFlight.none(graceMs),
    get active() {
      return draining;
    },
  } satisfies Drain);
  app.addHook('onClose', async () => {
    draining = true;
  });
  app.addHook('preClose', async () => {
    draining = true;
    // Keep-alive connections whose request finishes now would otherwise stay open until their idle
    // timeout and hold the close up; close each as soon as it goes idle.
    const closeIdle = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    closeIdle.unref();
    app.server.once('close', () => clearInterval(closeIdle));
  });
  // a callback, not an async function: it runs on every request, and a promise per request is a hop
  app.addHook('onRequest', (request, reply, done) => {
    // health, readiness and metrics keep answering in their own shapes: a draining instance is alive and not ready
    if (!draining || request.routeOptions.config.scope === 'operator') {
      done();
      return;
    }
    const error = restartError();
    // The connection closes once the answer is sent and whatever body came with the request is read;
    // the reply is taken over, so the request goes no further
    sendWhileDraining(request, reply, error, errorBody(request, error));
  });
}

/** Counts the requests whose response has not closed yet. */
class InFlight {
  private count = 0;
  private readonly waiting = new Set<() => void>();

  track(response: { once(event: 'close', listener: () => void): unknown }): void {
    this.count += 1;
    response.once('close', () => {
      this.count -= 1;
      if (this.count === 0) for (const wake of [...this.waiting]) wake();
    });
  }

  none(graceMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, graceMs);
      this.waiting.add(done);
    });
  }
}
