import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { send, type ModelSpec } from '../e2e/harness.js';
import { DATABASE_ENGINES, type DatabaseEngine } from '../support/database-urls.js';
import { readGeneration, readLedger } from './ledger-check.js';
import { startReliabilityHarness, type ReliabilityHarness } from './reliability-harness.js';

/**
 * Minimal reproductions of the defects the reliability suite found, each skipped (or expected to
 * fail) until its fix lands; known-defects.ts keeps the random suites from failing on them
 * meanwhile. Un-skip a test with its fix, and drop the matching entry there.
 */

const MODELS: ModelSpec[] = [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] }];
const sqlite = DATABASE_ENGINES.find((engine) => engine.name === 'sqlite') as DatabaseEngine;
const postgres = DATABASE_ENGINES.find((engine) => engine.name === 'postgres');

async function withHarness(engine: DatabaseEngine, work: (harness: ReliabilityHarness) => Promise<void>): Promise<void> {
  const harness = await startReliabilityHarness({ engine, models: MODELS, credits: '10' });
  try {
    await work(harness);
  } finally {
    await harness.close();
  }
}

describe('a caller who leaves before its body is read', () => {
  // A complete request whose caller leaves while the gateway is still admitting it (key lookup,
  // before the body is read): Fastify would attach its body reader to a request stream already
  // destroyed, so neither the handler nor the error handler would run and nothing be recorded.
  it('is recorded as cancelled with 408', async () => {
    await withHarness(sqlite, async (harness) => {
      const keys = harness.gateway.services.keys;
      const authenticate = keys.authenticate.bind(keys);
      let admitting: () => void = () => undefined;
      const inAdmission = new Promise<void>((resolve) => {
        admitting = resolve;
      });
      let resume: () => void = () => undefined;
      const left = new Promise<void>((resolve) => {
        resume = resolve;
      });
      keys.authenticate = async (presented) => {
        admitting();
        await left;
        return authenticate(presented);
      };
      // The gateway's side of the connection, to know when it has seen the caller leave.
      const serverClosed = new Promise<void>((resolve) => {
        harness.gateway.app.server.once('connection', (socket: Socket) => socket.once('close', () => resolve()));
      });
      const payload = JSON.stringify({ model: 'acme/chat', messages: [{ role: 'user', content: 'Hello' }] });
      const outgoing = httpRequest(`${harness.baseUrl}/chat/completions`, {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'x-title': 'left-early' },
      });
      const closed = new Promise<void>((resolve) => outgoing.on('close', () => resolve()));
      outgoing.on('error', () => undefined);
      outgoing.end(payload);
      await inAdmission;
      outgoing.destroy();
      await closed;
      await serverClosed;
      resume();
      let rows: Array<{ status: string; error_code: number | null }> = [];
      for (let poll = 0; poll < 100 && rows.length === 0; poll += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        rows = await harness.gateway.store.db.selectFrom('generations').select(['status', 'error_code']).where('app_title', '=', 'left-early').execute();
      }
      expect(rows).toEqual([{ status: 'cancelled', error_code: 408 }]);
      expect((await readLedger(harness)).reserved).toBe(0n);
    });
  });
});

describe.skipIf(postgres === undefined)('U+0000 on PostgreSQL', () => {
  // PostgreSQL refuses U+0000 in text: an id holding it is 404 without a query, and a recorded text
  // holding it is stored with U+FFFD in its place.
  it('GET /generation?id=%00 is 404 not_found', async () => {
    await withHarness(postgres as DatabaseEngine, async (harness) => {
      const reply = await send(harness, { path: '/generation?id=%00' });
      expect(reply.status).toBe(404);
    });
  });

  it('a refusal naming a model that holds U+0000 reads back by its X-Generation-Id', async () => {
    await withHarness(postgres as DatabaseEngine, async (harness) => {
      const refused = await send(harness, { path: '/chat/completions', body: { model: 'acme/chat\u0000', messages: [{ role: 'user', content: 'Hello' }] } });
      expect(refused.status).toBe(404);
      const record = await readGeneration(harness, refused.headers.get('x-generation-id') ?? '');
      expect(record.status).toBe(200);
      expect(record.data?.error?.code).toBe(404);
    });
  });
});

describe('prompt estimation', () => {
  // The tokenizer's cost grows with the square of one pre-token's length; the estimate bounds its work,
  // so a 100,000-character unbroken run is answered at once (it used to hold the process over 30 s).
  it('a prompt of 100,000 unbroken characters is answered while the gateway keeps serving', async () => {
    await withHarness(sqlite, async (harness) => {
      const reply = await send(harness, { path: '/chat/completions', body: { model: 'acme/chat', max_tokens: 4, messages: [{ role: 'user', content: 'ü'.repeat(100_000) }] } });
      // Served, or refused as longer than the window (the estimate leans high): never a fault.
      expect([200, 503]).toContain(reply.status);
      expect(reply.status === 200 || (reply.json as { error?: { metadata?: { error_type?: string } } }).error?.metadata?.error_type === 'no_route').toBe(true);
    });
  });
});
