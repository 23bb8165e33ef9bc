import type { ServerOptions } from 'node:http';
import { GatewayError } from '../core/errors.js';
import type { HttpSettings } from './services.js';

/** How often, at most, the server looks for connections past their head or request deadline. */
const CHECK_INTERVAL_MS = 1_000;

/** The Fastify options (and, under `http`, the Node server's) that bound receiving requests. */
export interface RequestTimeoutOptions {
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionTimeout: number;
  http: ServerOptions;
}

/**
 * The server's bounds on receiving a request: the head within `headersTimeoutMs`, the whole request
 * within `requestTimeoutMs` of its first byte, no more than `keepAliveTimeoutMs` idle between
 * requests. Once a request has arrived whole nothing is bounded here, so a long answer, streamed or
 * not, is never cut; and no socket inactivity timeout is set, since a non-streamed answer may be
 * quiet on the wire for as long as the provider takes. A request past its deadline is answered 408
 * (see client-error.ts).
 */
export function requestTimeoutOptions(settings: HttpSettings): RequestTimeoutOptions {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = settings;
  for (const [name, value] of Object.entries({ headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs })) {
    if (!Number.isInteger(value) || value <= 0) throw new Error(`HTTP settings: ${name} must be a positive number of milliseconds, not ${value}`);
  }
  if (headersTimeoutMs > requestTimeoutMs) throw new Error('HTTP settings: headersTimeoutMs must not exceed requestTimeoutMs');
  return {
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    connectionTimeout: 0,
    http: {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(CHECK_INTERVAL_MS, headersTimeoutMs),
    },
  };
}

/** The 408 for a connection whose request head did not arrive in time. */
export function headTimeoutError(settings: HttpSettings): GatewayError {
  return timeoutError(`request: headers not received within ${describeDuration(settings.headersTimeoutMs)}`);
}

/** The 408 for a request whose body did not arrive in full in time. */
export function bodyTimeoutError(settings: HttpSettings): GatewayError {
  return timeoutError(`body: request not received in full within ${describeDuration(settings.requestTimeoutMs)}`);
}

/** A 408 closes its connection: the rest of the request, if it ever comes, is not read. */
function timeoutError(message: string): GatewayError {
  return new GatewayError('request_timeout', message, { headers: { connection: 'close' } });
}

function describeDuration(ms: number): string {
  if (ms % 1000 !== 0) return `${ms} ms`;
  return ms === 1000 ? '1 second' : `${ms / 1000} seconds`;
}
