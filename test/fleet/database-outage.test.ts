import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMoney, startHarness, type Harness } from '../e2e/harness.js';
import { freshPostgresDatabase, POSTGRES_REACHABLE, type ScratchDatabase } from '../support/store-engines.js';
import { tcpRelay, type TcpRelay } from '../support/tcp-relay.js';

const CHAT = { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 4 };

describe.skipIf(!POSTGRES_REACHABLE)('while PostgreSQL cannot be reached', () => {
  let database: ScratchDatabase;
  let relay: TcpRelay;
  let harness: Harness;

  beforeAll(async () => {
    database = await freshPostgresDatabase();
    const direct = new URL(database.url);
    relay = await tcpRelay(direct.hostname, Number(direct.port || 5432));
    const relayed = new URL(database.url);
    relayed.host = relay.address;
    harness = await startHarness({ models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] }], databaseUrl: relayed.toString() });
  }, 60_000);

  afterAll(async () => {
    await harness?.close();
    await relay?.close();
    await database?.drop();
  });

  async function ask(path: string, body?: unknown): Promise<{ status: number; type: unknown; retryAfter: string | null }> {
    const response = await fetch(`${harness.baseUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const json = await response.json() as { error?: { metadata?: { error_type?: unknown } } };
    return { status: response.status, type: json.error?.metadata?.error_type, retryAfter: response.headers.get('retry-after') };
  }

  it('requests are the 503 server with Retry-After (never 401, never 500), /metrics says the database is down, no hold is left, and service resumes when it is back', async () => {
    expect((await ask('/chat/completions', CHAT)).status).toBe(200);
    relay.cut();
    const during = await Promise.all([ask('/key'), ask('/chat/completions', CHAT), ask('/credits'), ask('/batches')]);
    for (const reply of during) expect(reply).toEqual({ status: 503, type: 'server', retryAfter: '5' });
    const metrics = await (await fetch(`${harness.gateway.url}/metrics`)).text();
    expect(metrics).toMatch(/^switchyard_dependency_up\{dependency="database"\} 0$/m);
    expect(metrics).toMatch(/^switchyard_dependency_up\{dependency="catalogue"\} 1$/m);
    relay.restore();
    await expect.poll(async () => (await ask('/chat/completions', CHAT)).status, { timeout: 20_000, interval: 250 }).toBe(200);
    expect((await accountMoney(harness)).reserved).toBe(0n);
  }, 60_000);
});
