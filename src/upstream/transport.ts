import { Agent, request as undiciRequest, errors as undiciErrors } from 'undici';
import { DEFAULT_SETTINGS, type Settings } from '../settings/settings-table.js';
import type { UpstreamFailure } from '../core/events.js';
import { formBody } from './form-body.js';
import type { UpstreamRequest } from './types.js';

/** The `upstream.*` settings: how long a provider may take, and how many connections it gets. */
export interface TransportSettings {
  /** ms to open a connection (TCP and TLS). */
  connectTimeoutMs: number;
  /** ms until the provider's response headers arrive. */
  firstByteTimeoutMs: number;
  /** ms of silence allowed between body bytes (between stream chunks). */
  idleTimeoutMs: number;
  /** Most connections kept open to one provider origin. */
  connectionsPerOrigin: number;
}

export function transportSettingsFrom(settings: Settings): TransportSettings {
  return {
    connectTimeoutMs: settings['upstream.connect_timeout_ms'],
    firstByteTimeoutMs: settings['upstream.first_byte_timeout_ms'],
    idleTimeoutMs: settings['upstream.idle_timeout_ms'],
    connectionsPerOrigin: settings['upstream.connections_per_origin'],
  };
}

export const DEFAULT_TRANSPORT_SETTINGS = transportSettingsFrom(DEFAULT_SETTINGS);

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

  constructor(settings: TransportSettings = DEFAULT_TRANSPORT_SETTINGS) {
    this.agent = new Agent({
      connections: settings.connectionsPerOrigin,
      keepAliveTimeout: 30_000,
      connect: { timeout: settings.connectTimeoutMs },
      headersTimeout: settings.firstByteTimeoutMs,
      bodyTimeout: settings.idleTimeoutMs,
    });
  }

  async send(baseUrl: string, upstream: UpstreamRequest, signal: AbortSignal): Promise<UpstreamResponse> {
    const form = upstream.upload && formBody(upstream.body, upstream.upload);
    const response = await undiciRequest(joinUrl(baseUrl, upstream.path), {
      method: 'POST',
      headers: form ? { ...upstream.headers, 'content-type': form.contentType, 'content-length': String(form.contentLength) } : upstream.headers,
      body: form ? form.stream() : JSON.stringify(upstream.body),
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
