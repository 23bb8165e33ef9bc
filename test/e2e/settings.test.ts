import { writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogueYaml, send, startHarness, type Harness, type ModelSpec } from './harness.js';

const MODELS: ModelSpec[] = [
  { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] },
  { id: 'acme/slow', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2;ttft=3000' }] },
];

let harness: Harness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(fileSettings: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Promise<Harness> {
  harness = await startHarness({ models: MODELS, fileSettings, env });
  return harness;
}

/** Statuses of unauthenticated requests, each from the client its X-Forwarded-For names. */
async function addressStatuses(gateway: Harness, clients: string[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const client of clients) {
    statuses.push((await send(gateway, { path: '/', key: null, headers: { 'x-forwarded-for': client } })).status);
  }
  return statuses;
}

describe('settings: the address limit behind a reverse proxy', () => {
  it('behind a trusted proxy each client X-Forwarded-For names is counted on its own', async () => {
    // the file trusts another network; the machine's environment trusts the loopback proxy, and wins
    const gateway = await start({ rate_limits: { per_address_per_minute: 2 }, trust_proxy: ['10.0.0.0/8'] }, { SWITCHYARD_TRUST_PROXY: 'loopback' });
    expect(await addressStatuses(gateway, ['203.0.113.5', '203.0.113.5', '203.0.113.5', '203.0.113.6'])).toEqual([200, 200, 429, 200]);
  });

  it('from a proxy not trusted, X-Forwarded-For is ignored and the connection\'s address is counted', async () => {
    const gateway = await start({ rate_limits: { per_address_per_minute: 2 }, trust_proxy: ['10.0.0.0/8'] });
    expect(await addressStatuses(gateway, ['203.0.113.5', '203.0.113.6', '203.0.113.7'])).toEqual([200, 200, 429]);
  });
});

describe('settings: rate limits', () => {
  it('the file sets the key limit, and a reload changes it at once', async () => {
    const gateway = await start({ rate_limits: { per_key_per_minute: 100 } });
    expect((await send(gateway, { path: '/key' })).headers.get('x-ratelimit-limit')).toBe('100');
    await writeFile(gateway.configPath, catalogueYaml(gateway.sim.url, MODELS, { settings: { rate_limits: { per_key_per_minute: 40 } } }));
    await gateway.gateway.reload();
    expect((await send(gateway, { path: '/key' })).headers.get('x-ratelimit-limit')).toBe('40');
  });
});

describe('settings: upstream timeouts', () => {
  it('a provider slower to answer than upstream.first_byte_timeout_ms is a timeout', async () => {
    const gateway = await start({ upstream: { first_byte_timeout_ms: 200 } });
    const reply = await send(gateway, { path: '/chat/completions', body: { model: 'acme/slow', messages: [{ role: 'user', content: 'Hi' }] } });
    expect(reply.status).toBe(504);
    expect(reply.json).toMatchObject({ error: { metadata: { error_type: 'timeout' } } });
    const fast = await send(gateway, { path: '/chat/completions', body: { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] } });
    expect(fast.status).toBe(200);
  });
});
