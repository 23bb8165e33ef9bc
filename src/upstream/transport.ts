import { Agent, request as undiciRequest, errors as undiciErrors } from 'undici';
import type { UpstreamFailure } from '../core/events.js';
import type { UpstreamRequest } from './types.js';

export interface TransportTimeouts {
  /** ms until the provider's response headers arrive. */
  headersMs: number;
  /** ms of silence allowed between body bytes. */
  silenceMs: number;
}

export const DEFAULT_TIMEOUTS: TransportTimeouts = { headersMs: 120_000, silenceMs: 180_000 };

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array> & { text(): Promise<string>; json(): Promise<unknown>; destroy(): void };
}

/** Sends one upstream request; the executor's only way out. A test hands the executor a fake. */
export interface UpstreamTransport {
  send(baseUrl: string, upstream: UpstreamRequest, signal: AbortSignal): Promise<UpstreamResponse>;
}

/** Keep-alive connection pools to every provider, shared by all requests. */
export class Transport implements UpstreamTransport {
  private readonly agent: Agent;

  constructor(timeouts: TransportTimeouts = DEFAULT_TIMEOUTS) {
    this.agent = new Agent({
      connections: 256,
      keepAliveTimeout: 30_000,
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.silenceMs,
    });
  }

  async send(baseUrl: string, upstream: UpstreamRequest, signal: AbortSignal): Promise<UpstreamResponse> {
    const response = await undiciRequest(joinUrl(baseUrl, upstream.path), {
      method: 'POST',
      headers: upstream.headers,
      body: JSON.stringify(upstream.body),
      signal,
      dispatcher: this.agent,
    });
    return { status: response.statusCode, headers: flattenHeaders(response.headers), body: response.body };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function joinUrl(baseUrl: string, path: string): string {
  return baseUrl.endsWith('/') ? baseUrl.slice(0, -1) + path : baseUrl + path;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** Describes a thrown transport error as an upstream failure (no body, so no `raw`). */
export function transportFailure(error: unknown): UpstreamFailure {
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return { kind: 'timeout', retryable: true, providerMessage: 'The provider did not answer in time' };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'network', retryable: true, providerMessage: `Provider unreachable: ${message}` };
}
