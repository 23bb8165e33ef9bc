import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import OpenAI, { APIConnectionError, APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type ErrorEnvelope, type Harness } from './harness.js';

/** A small limit keeps the oversized bodies of these tests quick to send. */
const LIMIT = 64 * 1024;
const LIMIT_MESSAGE = 'body: larger than the 64 KiB (65536-byte) limit';
/** Far more than the socket buffers hold, so the body is still being sent when the gateway refuses it. */
const OVERSIZED = 8 * 1024 * 1024;

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] }],
    settings: { bodyLimitBytes: LIMIT },
  });
});

afterAll(async () => harness.close());

function oversizedMessages(bytes: number): OpenAI.Chat.Completions.ChatCompletionMessageParam[] {
  return [{ role: 'user', content: 'x'.repeat(bytes) }];
}

/** An official client counting the HTTP requests it makes (retries included). */
function countingClient(maxRetries?: number): { client: OpenAI; calls: () => number } {
  let calls = 0;
  const client = new OpenAI({
    baseURL: harness.baseUrl,
    apiKey: harness.key,
    ...(maxRetries !== undefined && { maxRetries }),
    fetch: async (url, init) => {
      calls += 1;
      return fetch(url, init);
    },
  });
  return { client, calls: () => calls };
}

async function refusalOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the request to be refused');
}

interface RawExchange {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The request's own error (EPIPE, ECONNRESET), if sending or reading failed. */
  error?: NodeJS.ErrnoException;
  /** Whether the gateway closed the connection after answering. */
  closed: boolean;
}

/**
 * Sends `total` bytes of a JSON chat body over a fresh connection, in 64 KiB writes with
 * back-pressure, with a Content-Length or (without one) chunked, and reads whatever comes back.
 */
function rawOversized(total: number, framing: 'content-length' | 'chunked'): Promise<RawExchange> {
  const head = '{"model":"acme/chat","messages":[{"role":"user","content":"';
  const tail = '"}]}';
  const filler = total - head.length - tail.length;
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' };
    if (framing === 'content-length') headers['content-length'] = total;
    const outgoing = httpRequest(`${harness.baseUrl}/chat/completions`, { method: 'POST', agent: false, headers });
    const exchange: RawExchange = { status: 0, headers: {}, body: '', closed: false };
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      resolve(exchange);
    };
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      exchange.error = error;
      settle();
    });
    outgoing.on('response', (incoming) => {
      exchange.status = incoming.statusCode ?? 0;
      exchange.headers = incoming.headers;
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => {
        exchange.body += chunk;
      });
      incoming.on('end', () => {
        outgoing.socket?.once('close', () => {
          exchange.closed = true;
          settle();
        });
      });
      incoming.on('error', (error: NodeJS.ErrnoException) => {
        exchange.error = error;
        settle();
      });
    });
    void writeBody(outgoing, head, filler, tail);
  });
}

async function writeBody(outgoing: ReturnType<typeof httpRequest>, head: string, filler: number, tail: string): Promise<void> {
  const piece = 'x'.repeat(64 * 1024);
  const write = (chunk: string) => new Promise<void>((resolve) => {
    if (outgoing.write(chunk)) {
      resolve();
      return;
    }
    const go = () => {
      outgoing.off('drain', go);
      outgoing.off('close', go);
      resolve();
    };
    outgoing.on('drain', go);
    outgoing.on('close', go);
  });
  await write(head);
  for (let left = filler; left > 0 && !outgoing.destroyed; left -= piece.length) await write(left >= piece.length ? piece : piece.slice(0, left));
  if (!outgoing.destroyed) outgoing.end(tail);
}

function expectEnvelope(body: unknown): void {
  const envelope = body as ErrorEnvelope;
  expect(envelope.error.code).toBe(413);
  expect(envelope.error.message).toBe(LIMIT_MESSAGE);
  expect(envelope.error.metadata.error_type).toBe('payload_too_large');
}

describe('a body over the configured limit is a 413 the client can read', () => {
  it('the official client without retries sees APIError 413, not a connection error', async () => {
    const { client, calls } = countingClient(0);
    const error = await refusalOf(client.chat.completions.create({ model: 'acme/chat', messages: oversizedMessages(OVERSIZED) }));
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(413);
    expectEnvelope({ error: (error as APIError).error });
    expect(calls()).toBe(1);
  });

  it('the official client with its default retries sends once: a 413 is not retried', async () => {
    const { client, calls } = countingClient();
    const error = await refusalOf(client.chat.completions.create({ model: 'acme/chat', messages: oversizedMessages(OVERSIZED) }));
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(413);
    expect((error as APIError).headers?.get('x-generation-id')).toMatch(/^gen-/);
    expect(calls()).toBe(1);
  });

  it.each(['content-length', 'chunked'] as const)('with %s framing the whole 413 arrives, then the connection closes', async (framing) => {
    const exchange = await rawOversized(OVERSIZED, framing);
    expect(exchange.error).toBeUndefined();
    expect(exchange.status).toBe(413);
    expect(exchange.headers.connection).toBe('close');
    expect(exchange.headers['content-type']).toMatch(/^application\/json/);
    expectEnvelope(JSON.parse(exchange.body));
    expect(exchange.closed).toBe(true);
  });

  it('the answer is written at once, while the caller is still sending', async () => {
    const outgoing = httpRequest(`${harness.baseUrl}/chat/completions`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
    });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      outgoing.on('error', reject);
      outgoing.on('response', (incoming) => {
        let body = '';
        const length = Number(incoming.headers['content-length']);
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => {
          body += chunk;
          if (Buffer.byteLength(body) === length) resolve({ status: incoming.statusCode ?? 0, body });
        });
      });
    });
    outgoing.write(`{"model":"acme/chat","messages":[{"role":"user","content":"${'x'.repeat(2 * LIMIT)}`);
    const { status, body } = await answered;
    expect(outgoing.writableEnded).toBe(false);
    expect(status).toBe(413);
    expectEnvelope(JSON.parse(body));
    outgoing.destroy();
  });

  it('a body just over the limit is refused alike, one just under it is served', async () => {
    expect((await rawOversized(LIMIT + 1, 'chunked')).status).toBe(413);
    expect((await rawOversized(LIMIT + 1, 'content-length')).status).toBe(413);
    const { client } = countingClient(0);
    const words = 'a body of words just under the limit '.repeat(Math.floor((LIMIT - 1024) / 38));
    const completion = await client.chat.completions.create({ model: 'acme/chat', messages: [{ role: 'user', content: words }] });
    expect(completion.choices[0]?.message.content).toBeTruthy();
  });
});
