import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { send, startHarness, type Harness, type RawReply } from './harness.js';
import { captureLog, isRequestLine, WARN, type LogCapture, type LogLine } from './log-capture.js';
import { firstAnswer, rawExchange } from './raw-connection.js';

/**
 * The log as an operator reads it (docs/operating.md, "Health, metrics and logs"): exactly one `info`
 * line per request when it ends, whatever ended it, with its route, status, duration, generation id,
 * key id, model, provider and upstream attempts; a `warn` line for each failed upstream attempt and
 * each refusal; never the key itself.
 */
const CHAT_ROUTE = '/api/v1/chat/completions';
const HEADERS_TIMEOUT_MS = 300;
const REQUEST_TIMEOUT_MS = 600;
const BAD_KEY = 'sk-svc-v1-0123456789abcdef0123456789abcdef';

let harness: Harness;
let log: LogCapture;
let keyId: string;

beforeAll(async () => {
  log = captureLog();
  harness = await startHarness({
    logger: log.logger,
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3' }] },
      {
        id: 'acme/failover',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'chat;error=503', pricing: { prompt: '0.0000001', completion: '0.0000002' } },
          { provider: 'sim-b', upstream_model: 'chat;tokens=3' },
        ],
      },
      { id: 'acme/broken', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;error=500' }] },
    ],
    settings: {
      bodyLimitBytes: 64 * 1024,
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      rateLimits: { perKeyPerMinute: 600, perAddressPerMinute: 4 },
    },
  });
  const key = await harness.gateway.services.keys.authenticate(harness.key);
  keyId = key?.keyId ?? '';
});

afterAll(async () => { await harness.close(); console.log(log.text()); });

function chat(body: Record<string, unknown>, key?: string | null): Promise<RawReply> {
  return send(harness, { path: '/chat/completions', body: { messages: [{ role: 'user', content: 'Hi' }], ...body }, ...(key !== undefined && { key }) });
}

/** The one request line of a reply carrying X-Generation-Id; fails when there is not exactly one. */
async function requestLineOf(reply: RawReply): Promise<LogLine> {
  const id = reply.headers.get('x-generation-id');
  expect(id).toMatch(/^gen-/);
  await log.until((line) => isRequestLine(line) && line.generation_id === id);
  const lines = log.lines.filter((line) => isRequestLine(line) && line.generation_id === id);
  expect(lines).toHaveLength(1);
  return lines[0] as LogLine;
}

function warningsOf(reply: RawReply): LogLine[] {
  return log.lines.filter((line) => line.level === WARN && line.generation_id === reply.headers.get('x-generation-id'));
}

describe('one info line per request', () => {
  it('a served reply: method, route pattern, status, duration, generation id, key id, model, provider, one attempt', async () => {
    const reply = await chat({ model: 'acme/chat' });
    expect(reply.status).toBe(200);
    const line = await requestLineOf(reply);
    expect(line).toMatchObject({
      method: 'POST', route: CHAT_ROUTE, status: 200, key_id: keyId, model: 'acme/chat', provider: 'sim-a', attempts: 1,
    });
    expect(typeof line.duration_ms).toBe('number');
    expect(warningsOf(reply)).toEqual([]);
  });

  it('a streamed reply is logged once, when the stream ends', async () => {
    const reply = await chat({ model: 'acme/chat', stream: true });
    expect(reply.text).toContain('[DONE]');
    expect(await requestLineOf(reply)).toMatchObject({ status: 200, model: 'acme/chat', provider: 'sim-a', attempts: 1 });
  });

  it('a failover: two attempts on the line, the serving provider, and a warning naming the endpoint that failed', async () => {
    const reply = await chat({ model: 'acme/failover' });
    expect(reply.status).toBe(200);
    expect(await requestLineOf(reply)).toMatchObject({ status: 200, provider: 'sim-b', attempts: 2 });
    expect(warningsOf(reply)).toEqual([expect.objectContaining({
      msg: 'upstream attempt failed; trying the next endpoint',
      provider: 'sim-a', endpoint: 'sim-a/acme/failover', reason: 'http', upstream_status: 503, failover: true,
    })]);
  });

  it('every endpoint failing (502): the attempts, no provider, a warning without failover', async () => {
    const reply = await chat({ model: 'acme/broken' });
    expect(reply.status).toBe(502);
    const line = await requestLineOf(reply);
    expect(line).toMatchObject({ status: 502, key_id: keyId, model: 'acme/broken', attempts: 1 });
    expect(line).not.toHaveProperty('provider');
    expect(warningsOf(reply)).toEqual([expect.objectContaining({ provider: 'sim-a', reason: 'http', upstream_status: 500, failover: false })]);
  });

  it('an invalid body (400) names the model asked for', async () => {
    const reply = await chat({ model: 'acme/chat', temperature: 'warm' });
    expect(reply.status).toBe(400);
    expect(await requestLineOf(reply)).toMatchObject({ route: CHAT_ROUTE, status: 400, key_id: keyId, model: 'acme/chat' });
  });

  it('an unknown model (404) is a refusal: a warning with its code and reason', async () => {
    const reply = await chat({ model: 'acme/nothing' });
    expect(reply.status).toBe(404);
    expect(await requestLineOf(reply)).toMatchObject({ status: 404, model: 'acme/nothing' });
    expect(warningsOf(reply)).toEqual([expect.objectContaining({ msg: 'request refused', code: 'not_found', status: 404 })]);
  });

  it('no route (503): the warning itemises why each endpoint was not eligible', async () => {
    const reply = await chat({ model: 'acme/chat', logprobs: true });
    expect(reply.status).toBe(503);
    expect(await requestLineOf(reply)).toMatchObject({ status: 503, model: 'acme/chat' });
    expect(warningsOf(reply)).toEqual([expect.objectContaining({
      code: 'no_route',
      rejections: [{ endpoint: 'sim-a/acme/chat', provider: 'sim-a', model: 'acme/chat', reason: 'does not declare logprobs' }],
    })]);
  });

  it('no credit (402): a refusal warning naming payment_required', async () => {
    const broke = await createAccount(harness.gateway.store, { name: 'broke', creditsUsd: '0' });
    const reply = await chat({ model: 'acme/chat' }, broke.key);
    expect(reply.status).toBe(402);
    expect(await requestLineOf(reply)).toMatchObject({ status: 402, key_id: broke.keyId });
    expect(warningsOf(reply)).toEqual([expect.objectContaining({ code: 'payment_required', status: 402 })]);
  });

  it('a body over the limit (413)', async () => {
    const reply = await send(harness, { path: '/chat/completions', rawBody: JSON.stringify({ model: 'acme/chat', padding: 'x'.repeat(70 * 1024) }) });
    expect(reply.status).toBe(413);
    expect(await requestLineOf(reply)).toMatchObject({ route: CHAT_ROUTE, status: 413 });
  });

  it('a body that never arrives in full (408)', async () => {
    const { host } = new URL(harness.baseUrl);
    const head = [`POST ${CHAT_ROUTE} HTTP/1.1`, `Host: ${host}`, `Authorization: Bearer ${harness.key}`, 'Content-Type: application/json', 'Content-Length: 100', '', ''];
    const answer = firstAnswer(await rawExchange(harness.baseUrl, `${head.join('\r\n')}{"model":"`));
    expect(answer.status).toBe(408);
    const id = answer.headers['x-generation-id'];
    const lines = await log.until((line) => isRequestLine(line) && line.generation_id === id);
    expect(lines).toEqual([expect.objectContaining({ route: CHAT_ROUTE, status: 408, key_id: keyId })]);
  });

  it('a head that never ends (408) is logged though no route saw it', async () => {
    const before = log.lines.filter((line) => isRequestLine(line) && line.route === undefined).length;
    const answer = firstAnswer(await rawExchange(harness.baseUrl, `GET /api/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: yes\r\n`));
    expect(answer.status).toBe(408);
    const lines = await log.until((line) => isRequestLine(line) && line.route === undefined, before + 1);
    expect(lines.at(-1)).toMatchObject({ status: 408, reason: `request: headers not received within ${HEADERS_TIMEOUT_MS} ms` });
  });

  it('a path no route serves (404) is logged as unmatched, with its path', async () => {
    const reply = await send(harness, { path: '/nothing-here?key=value', key: null });
    expect(reply.status).toBe(404);
    const lines = await log.until((line) => isRequestLine(line) && line.path === '/api/v1/nothing-here');
    expect(lines).toEqual([expect.objectContaining({ method: 'GET', route: 'unmatched', status: 404 })]);
  });

  it('a wrong key (401) and requests past the address limit (429) each get their line, without a key id', async () => {
    const replies: RawReply[] = [];
    for (let sent = 0; sent < 6 && replies.at(-1)?.status !== 429; sent += 1) replies.push(await chat({ model: 'acme/chat' }, BAD_KEY));
    expect(replies[0]?.status).toBe(401);
    expect(replies.at(-1)?.status).toBe(429);
    for (const reply of replies) {
      const line = await requestLineOf(reply);
      expect(line).toMatchObject({ route: CHAT_ROUTE, status: reply.status });
      expect(line).not.toHaveProperty('key_id');
    }
  });

  it('no key, nor any part of an Authorization header, ever reaches the log', async () => {
    await chat({ model: 'acme/chat' });
    await chat({ model: 'acme/failover', stream: true });
    const written = log.text();
    expect(written).toContain(keyId);
    expect(written).not.toContain(harness.key);
    expect(written).not.toContain(BAD_KEY);
    expect(written.toLowerCase()).not.toContain('bearer');
    expect(written.toLowerCase()).not.toContain('authorization');
  });
});

describe('the restart drain', () => {
  it('a request refused while the instance drains (503) gets its line', async () => {
    const drainLog = captureLog();
    const draining = await startHarness({
      logger: drainLog.logger,
      models: [{ id: 'acme/slow', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=400;tps=40' }] }],
      settings: { drainGraceMs: 500 },
    });
    const body = { model: 'acme/slow', stream: true, messages: [{ role: 'user', content: 'A long story' }] };
    const inFlight = await fetch(`${draining.baseUrl}/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${draining.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    const reader = inFlight.body?.getReader();
    if (!reader) throw new Error('the stream has no body');
    await reader.read();
    const closing = draining.gateway.close();
    const refused = await send(draining, { path: '/chat/completions', body });
    expect(refused.status).toBe(503);
    while (!(await reader.read()).done) { /* the stream in flight runs out its grace */ }
    await closing;
    await draining.sim.close();
    const lines = drainLog.lines.filter(isRequestLine);
    expect(lines).toHaveLength(2);
    expect(lines).toContainEqual(expect.objectContaining({ method: 'POST', route: CHAT_ROUTE, status: 503 }));
    expect(lines).toContainEqual(expect.objectContaining({ route: CHAT_ROUTE, status: 200, model: 'acme/slow', provider: 'sim-a', attempts: 1 }));
  });
});
