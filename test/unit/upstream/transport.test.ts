import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT_TRANSPORT_SETTINGS, Transport, transportFailure, type UpstreamResponse } from '../../../src/upstream/transport.js';
import type { BodyChunks, BodyListener } from '../../../src/upstream/response-body.js';
import type { UpstreamRequest } from '../../../src/upstream/types.js';
import type { CoreMessage } from '../../../src/core/request.js';
import { estimatePromptTokens } from '../../../src/core/token-estimate.js';

type Route = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void | Promise<void>;

/** A provider stand-in: each path answers as its route says; every request is recorded. */
interface Provider {
  url: string;
  received: { path: string; headers: IncomingMessage['headers']; body: Buffer }[];
  /** Resolves when the request to `path` is closed by the gateway's side or ends. */
  closed(path: string): Promise<void>;
  connections: number;
  close(): Promise<void>;
}

async function startProvider(routes: Record<string, Route>): Promise<Provider> {
  const closings = new Map<string, Promise<void>>();
  const provider: Provider = {
    url: '',
    received: [],
    connections: 0,
    closed: (path) => closings.get(path) ?? Promise.reject(new Error(`no request to ${path}`)),
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '';
    closings.set(path, once(res, 'close').then(() => undefined));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      provider.received.push({ path, headers: req.headers, body });
      const route = routes[path];
      if (!route) res.writeHead(404).end();
      else void route(req, res, body);
    });
  });
  server.on('connection', () => provider.connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  provider.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return provider;
}

function ask(path: string, extra: Partial<UpstreamRequest> = {}): UpstreamRequest {
  return { path, headers: { authorization: 'Bearer test' }, body: { model: 'm' }, ...extra };
}

async function readAll(response: UpstreamResponse): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(Buffer.from(chunk));
  return chunks;
}

/** Writes `count` pieces a few ms apart, so they reach the gateway as separate reads. */
async function writeSpaced(res: ServerResponse, pieces: string[]): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/plain' });
  for (const piece of pieces) {
    res.write(piece);
    await sleep(5);
  }
  res.end();
}

const held: ServerResponse[] = [];
const hold: Route = (_req, res) => {
  held.push(res);
};
const JSON_PIECES = ['{"choices":[{"message":', '{"role":"assistant",', '"content":"héllo"}}],', '"usage":{"total_tokens":3}}'];
const LARGE_BYTES = 64 * 1024 * 1024;

/** Bytes the `/large` route has handed to its socket, honouring its backpressure. */
let largeWritten = 0;

const routes: Record<string, Route> = {
  '/v1/echo': (req, res, body) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, contentType: req.headers['content-type'], body: body.toString() }));
  },
  '/headers': (_req, res) => {
    res.setHeader('X-Request-Id', 'abc');
    res.setHeader('X-Multi', ['one', 'two']);
    res.writeHead(201).end('{}');
  },
  '/early-hints': (_req, res) => {
    res.writeEarlyHints({ link: '</style.css>; rel=preload' });
    res.writeHead(200).end('{"ok":true}');
  },
  '/numbered': (_req, res) => writeSpaced(res, Array.from({ length: 12 }, (_, n) => `chunk-${n};`)),
  '/json-pieces': (_req, res) => writeSpaced(res, JSON_PIECES),
  // one HTTP chunk, then three in one system call: those arrive in one read of the connection
  '/together': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: a\n\n');
    setTimeout(() => {
      res.cork();
      res.write('data: b\n\n');
      res.write('data: c\n\n');
      res.write('data: d\n\n');
      res.uncork();
      setTimeout(() => res.end(), 30);
    }, 30);
  },
  '/bom': (_req, res) => {
    res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]));
  },
  '/not-json': (_req, res) => {
    res.end('<html>bad gateway</html>');
  },
  '/upload': (req, res, body) => {
    res.end(JSON.stringify({ contentType: req.headers['content-type'], contentLength: req.headers['content-length'], received: body.length }));
  },
  '/hold': hold,
  '/hold-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: first\n\n');
    held.push(res);
  },
  '/reset-mid-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    res.write('{"partial":', () => setTimeout(() => res.socket?.destroy(), 10));
  },
  '/silent-mid-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: first\n\n');
    held.push(res);
  },
  '/large': async (_req, res) => {
    largeWritten = 0;
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(LARGE_BYTES) });
    const piece = Buffer.alloc(64 * 1024, 7);
    while (largeWritten < LARGE_BYTES && !res.destroyed) {
      largeWritten += piece.length;
      if (!res.write(piece)) await once(res, 'drain');
    }
    res.end();
  },
};

let provider: Provider;
let transport: Transport;

beforeAll(async () => {
  provider = await startProvider(routes);
  transport = new Transport();
});

afterAll(async () => {
  for (const res of held) res.destroy();
  await transport?.close();
  await provider?.close();
});

beforeEach(() => {
  provider.received.length = 0;
});

/** The provider saw its request to `path` closed within a second (nothing else would close it). */
function closedSoon(path: string): Promise<void> {
  return Promise.race([provider.closed(path), sleep(1_000).then(() => Promise.reject(new Error(`${path} still open`)))]);
}

describe('what the transport sends and hands back', () => {
  test('the JSON body is POSTed to the base URL joined with the path, with the request\'s headers', async () => {
    const response = await transport.send(`${provider.url}/v1/`, ask('/echo', { headers: { 'content-type': 'application/json', authorization: 'Bearer k' } }), AbortSignal.timeout(5_000));
    expect(response.status).toBe(200);
    expect(await response.body.json()).toEqual({ method: 'POST', contentType: 'application/json', body: '{"model":"m"}' });
    expect(provider.received[0]?.headers.authorization).toBe('Bearer k');
  });

  test('each request goes to its own base URL and path, however often the transport sent elsewhere before', async () => {
    const sent: [string, string][] = [[`${provider.url}/v1`, '/echo'], [`${provider.url}/v2/`, '/echo'], [`${provider.url}/v1`, '/headers'], [`${provider.url}/v1`, '/echo']];
    for (const [base, path] of sent) await (await transport.send(base, ask(path), AbortSignal.timeout(5_000))).body.text();
    expect(provider.received.slice(-sent.length).map((request) => request.path)).toEqual(['/v1/echo', '/v2/echo', '/v1/headers', '/v1/echo']);
  });

  test('tools the prompt estimate wrote out go out as written, in the body JSON.stringify would write', async () => {
    const tools = Array.from({ length: 50 }, (_, index) => ({
      type: 'function' as const,
      function: { name: `lookup_${index}`, description: `Looks up "record" ${index}\n of the yard`, parameters: { type: 'object', properties: { id: { type: 'string' } } } },
    }));
    const body = { model: 'm', messages: [{ role: 'user', content: 'Which siding is free?' }], tools, tool_choice: 'auto', user: undefined };
    estimatePromptTokens(body.messages as CoreMessage[], tools);
    const response = await transport.send(`${provider.url}/v1`, ask('/echo', { body }), AbortSignal.timeout(5_000));
    expect(((await response.body.json()) as { body: string }).body).toBe(JSON.stringify(body));
  });

  test('response header names are lower-case, and a repeated header is one comma-joined value', async () => {
    const response = await transport.send(provider.url, ask('/headers'), AbortSignal.timeout(5_000));
    expect(response.status).toBe(201);
    expect(response.headers['x-request-id']).toBe('abc');
    expect(response.headers['x-multi']).toBe('one, two');
    await response.body.text();
  });

  test('an informational 103 before the answer is passed over: send resolves with the final status', async () => {
    const response = await transport.send(provider.url, ask('/early-hints'), AbortSignal.timeout(5_000));
    expect(response.status).toBe(200);
    expect(response.headers.link).toBeUndefined();
    expect(await response.body.json()).toEqual({ ok: true });
  });

  test('a multipart upload goes out with its form content-type and a content-length matching the bytes sent', async () => {
    const upload = { field: 'file', filename: 'a.wav', mediaType: 'audio/wav', bytes: new Uint8Array(100_000).fill(3) };
    const response = await transport.send(provider.url, ask('/upload', { body: { model: 'whisper-1' }, upload }), AbortSignal.timeout(5_000));
    const seen = (await response.body.json()) as { contentType: string; contentLength: string; received: number };
    expect(seen.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(Number(seen.contentLength)).toBe(seen.received);
    expect(seen.received).toBeGreaterThan(100_000);
  });

  test('a body read to its end leaves the connection open for the next request', async () => {
    const before = provider.connections;
    for (let n = 0; n < 3; n++) await (await transport.send(provider.url, ask('/headers'), AbortSignal.timeout(5_000))).body.json();
    expect(provider.connections - before).toBeLessThanOrEqual(1);
  });
});

describe('reading the body', () => {
  test('chunks are yielded in the order the provider wrote them, those held before the reader came too', async () => {
    const response = await transport.send(provider.url, ask('/numbered'), AbortSignal.timeout(5_000));
    await sleep(30);
    const chunks = await readAll(response);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).toString()).toBe(Array.from({ length: 12 }, (_, n) => `chunk-${n};`).join(''));
  });

  test('json() parses a body that arrived in several reads, multi-byte text intact', async () => {
    const response = await transport.send(provider.url, ask('/json-pieces'), AbortSignal.timeout(5_000));
    expect(await response.body.json()).toEqual({ choices: [{ message: { role: 'assistant', content: 'héllo' } }], usage: { total_tokens: 3 } });
  });

  test('text() returns the whole body, in order', async () => {
    const response = await transport.send(provider.url, ask('/numbered'), AbortSignal.timeout(5_000));
    expect(await response.body.text()).toBe(Array.from({ length: 12 }, (_, n) => `chunk-${n};`).join(''));
  });

  test('a leading UTF-8 byte-order mark is dropped before text() and json(), as undici\'s body did', async () => {
    expect(await (await transport.send(provider.url, ask('/bom'), AbortSignal.timeout(5_000))).body.json()).toEqual({ a: 1 });
    expect(await (await transport.send(provider.url, ask('/bom'), AbortSignal.timeout(5_000))).body.text()).toBe('{"a":1}');
  });

  test('json() of a body that is not JSON rejects with the parser\'s SyntaxError', async () => {
    const response = await transport.send(provider.url, ask('/not-json'), AbortSignal.timeout(5_000));
    await expect(response.body.json()).rejects.toBeInstanceOf(SyntaxError);
  });

  test('a body is read once: text() after the chunks were taken is refused', async () => {
    const response = await transport.send(provider.url, ask('/numbered'), AbortSignal.timeout(5_000));
    await readAll(response);
    await expect(response.body.text()).rejects.toBeInstanceOf(TypeError);
  });
});

describe('the caller\'s abort', () => {
  test('an already aborted signal rejects with its reason and sends nothing', async () => {
    const reason = new Error('caller left');
    await expect(transport.send(provider.url, ask('/v1/echo'), AbortSignal.abort(reason))).rejects.toBe(reason);
    await sleep(20);
    expect(provider.received).toHaveLength(0);
  });

  test('an abort before the headers rejects send with the signal\'s reason and closes the upstream request', async () => {
    const caller = new AbortController();
    const sent = transport.send(provider.url, ask('/hold'), caller.signal);
    await expect.poll(() => provider.received.length).toBe(1);
    const reason = new Error('caller left');
    caller.abort(reason);
    await expect(sent).rejects.toBe(reason);
    await closedSoon('/hold');
  });

  test('an abort mid-body ends the iteration with the signal\'s reason and closes the upstream request', async () => {
    const caller = new AbortController();
    const response = await transport.send(provider.url, ask('/hold-body'), caller.signal);
    const reading = readAll(response);
    await sleep(20);
    const reason = new Error('caller left');
    caller.abort(reason);
    await expect(reading).rejects.toBe(reason);
    await closedSoon('/hold-body');
  });

  test('an abort after the body arrived but before it was read rejects the read, as undici\'s body did', async () => {
    const caller = new AbortController();
    const response = await transport.send(provider.url, ask('/numbered'), caller.signal);
    await sleep(150);
    const reason = new Error('caller left');
    caller.abort(reason);
    await expect(response.body.text()).rejects.toBe(reason);
  });

  test('destroy() mid-body closes the upstream request, and a later read throws', async () => {
    const response = await transport.send(provider.url, ask('/hold-body'), new AbortController().signal);
    response.body.destroy();
    await closedSoon('/hold-body');
    await expect(response.body.text()).rejects.toThrow(/aborted/i);
  });

  test('leaving a for await early closes the upstream request', async () => {
    const response = await transport.send(provider.url, ask('/hold-body'), new AbortController().signal);
    for await (const chunk of response.body) {
      expect(Buffer.from(chunk).toString()).toBe('data: first\n\n');
      break;
    }
    await closedSoon('/hold-body');
  });
});

describe('failures', () => {
  test('a connection reset mid-body is thrown from the iteration and is a network failure', async () => {
    const response = await transport.send(provider.url, ask('/reset-mid-body'), AbortSignal.timeout(5_000));
    const error: unknown = await readAll(response).then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Error);
    expect(transportFailure(error)).toMatchObject({ kind: 'network', retryable: true });
  });

  test('a connection reset mid-body rejects json()', async () => {
    const response = await transport.send(provider.url, ask('/reset-mid-body'), AbortSignal.timeout(5_000));
    await expect(response.body.json()).rejects.toBeInstanceOf(Error);
  });

  test('a refused connection rejects send as a network failure', async () => {
    const gone = await startProvider({});
    await gone.close();
    const error: unknown = await transport.send(gone.url, ask('/v1/echo'), AbortSignal.timeout(5_000)).catch((thrown: unknown) => thrown);
    expect(transportFailure(error).kind).toBe('network');
  });

  describe('with short timeouts', () => {
    let impatient: Transport;

    beforeAll(() => {
      impatient = new Transport({ ...DEFAULT_TRANSPORT_SETTINGS, firstByteTimeoutMs: 100, idleTimeoutMs: 100 });
    });

    afterAll(() => impatient.close());

    test('headers slower than first_byte_timeout_ms reject send with a timeout failure', async () => {
      const error: unknown = await impatient.send(provider.url, ask('/hold'), AbortSignal.timeout(5_000)).catch((thrown: unknown) => thrown);
      expect(transportFailure(error)).toMatchObject({ kind: 'timeout', retryable: true });
    });

    test('silence mid-body longer than idle_timeout_ms is thrown from the iteration as a timeout failure', async () => {
      const response = await impatient.send(provider.url, ask('/silent-mid-body'), AbortSignal.timeout(5_000));
      const error: unknown = await readAll(response).then(() => undefined, (thrown: unknown) => thrown);
      expect(transportFailure(error)).toMatchObject({ kind: 'timeout', retryable: true });
    });
  });
});

/** What a listener was handed: the chunks' text, and how it ended (undefined while it has not). */
interface Heard {
  chunks: string[];
  ended: { error: Error | undefined } | undefined;
}

/** Switches `response`'s reader to listening, each chunk answered as `answer` says. */
function listenTo(response: UpstreamResponse, answer: (chunk: string, heard: Heard) => Promise<void> | undefined = () => undefined): { reader: BodyChunks; heard: Heard } {
  const reader = response.body[Symbol.asyncIterator]() as BodyChunks;
  const heard: Heard = { chunks: [], ended: undefined };
  const listener: BodyListener = {
    chunk(bytes) {
      const text = Buffer.from(bytes).toString();
      heard.chunks.push(text);
      return answer(text, heard);
    },
    end(error) {
      if (heard.ended) throw new Error('ended twice');
      heard.ended = { error };
    },
  };
  reader.listen(listener);
  return { reader, heard };
}

describe('a reader that listens', () => {
  test('it is handed the chunks held, then each as it arrives, in order, then the end', async () => {
    const response = await transport.send(provider.url, ask('/numbered'), AbortSignal.timeout(5_000));
    await sleep(12);
    const { heard } = listenTo(response);
    expect(heard.chunks.length).toBeGreaterThan(0);
    await expect.poll(() => heard.ended).toEqual({ error: undefined });
    expect(heard.chunks.length).toBeGreaterThan(1);
    expect(heard.chunks.join('')).toBe(Array.from({ length: 12 }, (_, n) => `chunk-${n};`).join(''));
  });

  test('the chunks of one read of the connection are handed over together, as one', async () => {
    const response = await transport.send(provider.url, ask('/together'), AbortSignal.timeout(5_000));
    const { heard } = listenTo(response);
    await expect.poll(() => heard.ended).toEqual({ error: undefined });
    expect(heard.chunks.join('')).toBe('data: a\n\ndata: b\n\ndata: c\n\ndata: d\n\n');
    // the first may come alone or with the others, as the test's own loop is slow or not; the three
    // sent together are never handed over apart
    expect(heard.chunks.some((chunk) => chunk.includes('data: b\n\ndata: c\n\ndata: d\n\n'))).toBe(true);
  });

  test('after pulling, the rest is handed over: nothing lost or repeated', async () => {
    const response = await transport.send(provider.url, ask('/numbered'), AbortSignal.timeout(5_000));
    const reader = response.body[Symbol.asyncIterator]() as BodyChunks;
    const first = await reader.next();
    const heard: string[] = [];
    let ended = false;
    reader.listen({
      chunk: (bytes) => void heard.push(Buffer.from(bytes).toString()),
      end: () => {
        ended = true;
      },
    });
    await expect.poll(() => ended).toBe(true);
    expect(Buffer.from(first.value ?? []).toString() + heard.join('')).toBe(Array.from({ length: 12 }, (_, n) => `chunk-${n};`).join(''));
  });

  test('a chunk answered with a promise holds the rest (and the provider) until it settles', async () => {
    const response = await transport.send(provider.url, ask('/large'), AbortSignal.timeout(15_000));
    let read = 0;
    let release = () => {};
    const { heard } = listenTo(response, (chunk, { chunks }) => {
      read += chunk.length;
      if (chunks.length > 1) return undefined;
      return new Promise((resolve) => {
        release = resolve;
      });
    });
    await sleep(300);
    expect(heard.chunks).toHaveLength(1);
    // unpaused, the whole 64 MiB crosses loopback in far less than 300 ms
    expect(largeWritten - read).toBeLessThan(24 * 1024 * 1024);
    release();
    await expect.poll(() => heard.ended, { timeout: 10_000 }).toEqual({ error: undefined });
    expect(read).toBe(LARGE_BYTES);
  });

  test('a connection reset is its end, with the error', async () => {
    const response = await transport.send(provider.url, ask('/reset-mid-body'), AbortSignal.timeout(5_000));
    const { heard } = listenTo(response);
    await expect.poll(() => heard.ended).toBeDefined();
    expect(transportFailure(heard.ended?.error)).toMatchObject({ kind: 'network', retryable: true });
  });

  test('destroying the body in its own call closes the upstream request; the end comes once, after that call', async () => {
    const response = await transport.send(provider.url, ask('/hold-body'), new AbortController().signal);
    let endedInCall: boolean | undefined;
    const { heard } = listenTo(response, (_chunk, seen) => {
      response.body.destroy();
      endedInCall = seen.ended !== undefined;
      return undefined;
    });
    await expect.poll(() => heard.chunks).toEqual(['data: first\n\n']);
    expect(endedInCall).toBe(false);
    expect(heard.ended?.error).toBeInstanceOf(Error);
    await closedSoon('/hold-body');
  });
});

describe('backpressure', () => {
  test('a slow reader of a large body holds the provider back: it gets ahead only by the socket buffers', async () => {
    const response = await transport.send(provider.url, ask('/large'), AbortSignal.timeout(15_000));
    const chunks = response.body[Symbol.asyncIterator]();
    let read = 0;
    const first = await chunks.next();
    read += first.value?.length ?? 0;
    await sleep(300);
    // unpaused, the whole 64 MiB crosses loopback in far less than 300 ms
    expect(largeWritten - read).toBeLessThan(24 * 1024 * 1024);
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) read += next.value.length;
    expect(read).toBe(LARGE_BYTES);
  });
});
