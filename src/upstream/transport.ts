import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { Agent, errors as undiciErrors, type Dispatcher } from 'undici';
import { DEFAULT_SETTINGS, type Settings } from '../settings/settings-table.js';
import type { AbortLike } from '../core/abort.js';
import { jsonBodyText } from '../core/json-text.js';
import type { UpstreamFailure } from '../core/events.js';
import { formBody } from './form-body.js';
import { ResponseBody } from './response-body.js';
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
  /** Read only where a failure is decoded: flattened from undici's on first read. */
  readonly headers: Record<string, string>;
  body: AsyncIterable<Uint8Array> & { text(): Promise<string>; json(): Promise<unknown>; destroy(): void };
}

/** Sends one upstream request; the executor's only way out. A test hands the executor a fake. */
export interface UpstreamTransport {
  send(baseUrl: string, upstream: UpstreamRequest, signal: AbortLike): Promise<UpstreamResponse>;
}

/** Keep-alive connection pools to every provider, shared by all requests. */
export class Transport implements UpstreamTransport {
  private readonly agent: Agent;
  /** Each provider URL split once into the origin and path the agent takes (a catalogue names few). */
  private readonly targets = new Map<string, { origin: string; path: string }>();

  constructor(settings: TransportSettings = DEFAULT_TRANSPORT_SETTINGS) {
    this.agent = new Agent({
      connections: settings.connectionsPerOrigin,
      keepAliveTimeout: 30_000,
      connect: { timeout: settings.connectTimeoutMs },
      headersTimeout: settings.firstByteTimeoutMs,
      bodyTimeout: settings.idleTimeoutMs,
    });
  }

  send(baseUrl: string, upstream: UpstreamRequest, signal: AbortLike): Promise<UpstreamResponse> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      const { origin, path } = this.targetOf(joinUrl(baseUrl, upstream.path));
      const form = upstream.upload && formBody(upstream.body, upstream.upload);
      const body = form ? form.stream() : jsonBodyText(upstream.body);
      const headers = form ? { ...upstream.headers, 'content-type': form.contentType, 'content-length': String(form.contentLength) } : upstream.headers;
      const exchange = new Exchange({ signal, requestBody: body, resolve, reject });
      this.agent.dispatch({ origin, path, method: 'POST', headers, body }, exchange);
    });
  }

  private targetOf(href: string): { origin: string; path: string } {
    let target = this.targets.get(href);
    if (!target) {
      const url = new URL(href);
      target = { origin: url.origin, path: url.pathname + url.search };
      // a catalogue names a handful of URLs; a bound keeps a changing one from growing the map for ever
      if (this.targets.size >= MAX_REMEMBERED_TARGETS) this.targets.clear();
      this.targets.set(href, target);
    }
    return target;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

const MAX_REMEMBERED_TARGETS = 1024;

function joinUrl(baseUrl: string, path: string): string {
  return baseUrl.endsWith('/') ? baseUrl.slice(0, -1) + path : baseUrl + path;
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function abortReason(signal: AbortLike): Error {
  return (signal.reason as Error | undefined) ?? new undiciErrors.RequestAbortedError();
}

/** A response as `send` hands it over; its headers are flattened only if something reads them. */
class Response implements UpstreamResponse {
  #headers: Record<string, string> | undefined;

  constructor(
    readonly status: number,
    private readonly rawHeaders: IncomingHttpHeaders,
    readonly body: ResponseBody,
  ) {}

  get headers(): Record<string, string> {
    this.#headers ??= flattenHeaders(this.rawHeaders);
    return this.#headers;
  }
}

interface ExchangeOptions {
  signal: AbortLike;
  /** Destroyed if the request fails, so an unsent upload is let go. */
  requestBody: Readable | string;
  resolve(response: UpstreamResponse): void;
  reject(error: Error): void;
}

/**
 * One request on the agent: settles `send` when the final response headers arrive (or the request
 * fails first), then feeds the body. The caller's abort fails whichever comes next, until the body is
 * read to its end, fails or is destroyed.
 */
class Exchange implements Dispatcher.DispatchHandler {
  readonly #options: ExchangeOptions;
  readonly #onAbort = () => this.#abort();
  #controller: Dispatcher.DispatchController | undefined;
  #body: ResponseBody | undefined;

  constructor(options: ExchangeOptions) {
    this.#options = options;
    options.signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.#options.signal.aborted) controller.abort(abortReason(this.#options.signal));
    else this.#controller = controller;
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // an informational (1xx) response precedes the real one
    if (statusCode < 200) return;
    this.#body = new ResponseBody(controller, () => this.#release());
    this.#options.resolve(new Response(statusCode, headers, this.#body));
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#body?.push(chunk);
  }

  onResponseEnd(): void {
    this.#body?.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.#body) this.#body.fail(error);
    else this.#options.reject(error);
    const { requestBody } = this.#options;
    if (typeof requestBody !== 'string') requestBody.destroy();
    this.#release();
  }

  #abort(): void {
    const reason = abortReason(this.#options.signal);
    if (this.#body) {
      this.#body.destroy(reason);
      return;
    }
    this.#options.reject(reason);
    this.#controller?.abort(reason);
  }

  #release(): void {
    this.#options.signal.removeEventListener('abort', this.#onAbort);
  }
}

/** Describes a thrown transport error as an upstream failure (no body, so no `raw`). */
export function transportFailure(error: unknown): UpstreamFailure {
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return { kind: 'timeout', retryable: true, providerMessage: 'The provider did not answer in time' };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'network', retryable: true, providerMessage: `Provider unreachable: ${message}` };
}
