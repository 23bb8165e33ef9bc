import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';
import { firstAnswer, openRaw, rawExchange, untilAnswered, type RawAnswer } from './raw-connection.js';

/**
 * What the server answers before, or instead of, a route: requests that arrive too slowly, heads
 * that are not HTTP or too large. Each is answered in the shared envelope with `Connection: close`,
 * and the connection is then closed. Small timeouts keep the slow cases short.
 */
const HEADERS_TIMEOUT_MS = 300;
const REQUEST_TIMEOUT_MS = 600;
const KEEP_ALIVE_TIMEOUT_MS = 300;

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] },
      // About a second to answer: longer than any of the timeouts above.
      { id: 'acme/slow', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=30;tps=30' }] },
    ],
    settings: { headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS, keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS },
  });
});

afterAll(async () => harness.close());

const HOST = 'Host: 127.0.0.1';

function head(path: string, headers: string[]): string {
  const { pathname } = new URL(`${harness.baseUrl}${path}`);
  return [`POST ${pathname} HTTP/1.1`, HOST, `Authorization: Bearer ${harness.key}`, 'Content-Type: application/json', ...headers, '', ''].join('\r\n');
}

function envelopeOf(answer: RawAnswer): ErrorEnvelope['error'] {
  return (answer.json as ErrorEnvelope).error;
}

/** A refusal written by the server itself: the shared envelope, `Connection: close`, then the connection closed. */
function expectServerRefusal(text: string, status: number, errorType: string): ErrorEnvelope['error'] {
  const answer = firstAnswer(text);
  expect(answer.status, text).toBe(status);
  expect(answer.headers['connection']).toBe('close');
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const error = envelopeOf(answer);
  expect(error.code).toBe(status);
  expect(error.metadata.error_type).toBe(errorType);
  expect(text.length).toBe(text.indexOf('\r\n\r\n') + 4 + Buffer.byteLength(answer.body));
  return error;
}

describe('a request that arrives too slowly is answered 408 and its connection closed', () => {
  it('a body shorter than its Content-Length gets 408 timeout in the route envelope, with a generation that reads back', async () => {
    const text = await rawExchange(harness.baseUrl, `${head('/chat/completions', ['Content-Length: 100'])}{"model":"`);
    const error = expectServerRefusal(text, 408, 'timeout');
    expect(error.message).toBe(`body: request not received in full within ${REQUEST_TIMEOUT_MS} ms`);
    const id = firstAnswer(text).headers['x-generation-id'];
    expect(id).toMatch(/^gen-/);
    const generation = await send(harness, { path: `/generation?id=${id}` });
    expect(generation.status).toBe(200);
    expect(generation.json).toMatchObject({ data: { id, status: 'error', error: { code: 408 } } });
  });

  it('on /messages the 408 is in the messages envelope', async () => {
    const text = await rawExchange(harness.baseUrl, `${head('/messages', ['Content-Length: 100'])}{"model":"`);
    const answer = firstAnswer(text);
    expect(answer.status).toBe(408);
    expect(answer.headers['connection']).toBe('close');
    expect(answer.json).toMatchObject({ type: 'error', error: { code: 408, metadata: { error_type: 'timeout' } } });
  });

  it('a body trickled a byte at a time is cut off by the whole-request deadline', async () => {
    const connection = await openRaw(harness.baseUrl);
    connection.write(head('/chat/completions', ['Content-Length: 1000']));
    const trickle = setInterval(() => connection.write(' '), 50);
    try {
      const text = await connection.closed;
      expect(expectServerRefusal(text, 408, 'timeout').message).toMatch(/^body: request not received in full/);
    } finally {
      clearInterval(trickle);
    }
  });

  it('a head that never ends gets 408 in the shared envelope', async () => {
    const text = await rawExchange(harness.baseUrl, `GET /api/v1/ HTTP/1.1\r\n${HOST}\r\nX-Slow: yes\r\n`);
    expect(expectServerRefusal(text, 408, 'timeout').message).toBe(`request: headers not received within ${HEADERS_TIMEOUT_MS} ms`);
  });

  it('a connection left idle after its answer is closed after the keep-alive timeout, with nothing written', async () => {
    const connection = await openRaw(harness.baseUrl);
    connection.write(`GET /api/v1/ HTTP/1.1\r\n${HOST}\r\n\r\n`);
    const text = await connection.closed;
    expect(firstAnswer(text).status).toBe(200);
    expect(text.split('HTTP/1.1 ')).toHaveLength(2);
  });
});

describe('the timeouts bound receiving the request, never the answer', () => {
  it('a stream longer than every timeout ends with [DONE]', async () => {
    const reply = await send(harness, { path: '/chat/completions', body: { model: 'acme/slow', stream: true, messages: [{ role: 'user', content: 'A story' }] } });
    expect(reply.status).toBe(200);
    const { data } = readSse(reply.text);
    expect(data.at(-1)).toBe('[DONE]');
    expect(data.some((payload) => payload.includes('"error"'))).toBe(false);
  });

  it('a whole reply that takes longer than every timeout arrives', async () => {
    const reply = await send(harness, { path: '/chat/completions', body: { model: 'acme/slow', messages: [{ role: 'user', content: 'A story' }] } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toMatchObject({ choices: [{ finish_reason: 'stop' }] });
  });

  it('a second request on a kept-alive connection has the whole deadline again', async () => {
    const connection = await openRaw(harness.baseUrl);
    const body = JSON.stringify({ model: 'acme/slow', messages: [{ role: 'user', content: 'A story' }] });
    connection.write(`${head('/chat/completions', [`Content-Length: ${body.length}`])}${body}`);
    await untilAnswered(connection);
    connection.write(`GET /api/v1/ HTTP/1.1\r\n${HOST}\r\nConnection: close\r\n\r\n`);
    const answers = (await connection.closed).split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((answer) => firstAnswer(answer).status)).toEqual([200, 200]);
  });
});

describe('a head Node refuses is answered in the shared envelope', () => {
  const malformed: Array<[string, string]> = [
    ['an obs-fold header', `GET /api/v1/ HTTP/1.1\r\n${HOST}\r\nX-Folded: one\r\n two\r\n\r\n`],
    ['a bare CR', `GET /api/v1/ HTTP/1.1\r${HOST}\r\n\r\n`],
    ['a bare LF', `GET /api/v1/ HTTP/1.1\r\n${HOST}\nX-Next: yes\r\n\r\n`],
    ['a NUL in a header value', `GET /api/v1/ HTTP/1.1\r\n${HOST}\r\nX-Nul: a\0b\r\n\r\n`],
    ['a duplicate Content-Length', `POST /api/v1/chat/completions HTTP/1.1\r\n${HOST}\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`],
  ];

  it.each(malformed)('%s gets 400 invalid_request naming what is wrong', async (_name, request) => {
    const text = await rawExchange(harness.baseUrl, request);
    expect(expectServerRefusal(text, 400, 'invalid_request').message).toMatch(/^request: malformed HTTP request \(.+\)$/);
  });

  it('a malformed chunked body on an inference route is refused by the route: its envelope, with a generation that reads back', async () => {
    const text = await rawExchange(harness.baseUrl, `${head('/messages', ['Transfer-Encoding: chunked'])}5\r\n{"mod\r\nzz\r\n`);
    const answer = firstAnswer(text);
    expect(answer.status, text).toBe(400);
    expect(answer.headers['connection']).toBe('close');
    expect(answer.json).toMatchObject({ type: 'error', error: { code: 400, metadata: { error_type: 'invalid_request' } } });
    expect((answer.json as { error: { message: string } }).error.message).toMatch(/^request: malformed HTTP request \(.+\)$/);
    const id = answer.headers['x-generation-id'];
    const generation = await send(harness, { path: `/generation?id=${id}` });
    expect(generation.json).toMatchObject({ data: { id, status: 'error', error: { code: 400 } } });
  });

  it('a duplicate Content-Length is named', async () => {
    const text = await rawExchange(harness.baseUrl, malformed[4]?.[1] ?? '');
    expect(expectServerRefusal(text, 400, 'invalid_request').message).toBe('request: malformed HTTP request (Duplicate Content-Length)');
  });

  it.each([
    ['a 20 KB header', `GET /api/v1/ HTTP/1.1\r\n${HOST}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    ['a 20 KB query', `GET /api/v1/?q=${'a'.repeat(20_000)} HTTP/1.1\r\n${HOST}\r\n\r\n`],
  ])('%s gets 431 headers_too_large naming the limit', async (_name, request) => {
    const text = await rawExchange(harness.baseUrl, request);
    expect(expectServerRefusal(text, 431, 'invalid_request').message).toBe('request: headers larger than the 16 KiB (16384-byte) limit');
  });
});
