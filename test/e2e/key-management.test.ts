import { CLI_CHANGE } from '../../src/accounts/audit.js';
import { createWorkspace } from '../../src/accounts/workspaces.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenRouter } from '@openrouter/sdk';
import { createAccount, createKey } from '../../src/accounts/accounts.js';
import { hashKey } from '../../src/accounts/key-format.js';
import { parseUsd } from '../../src/billing/money.js';
import { send, startHarness, type Harness, type RawReply } from './harness.js';

const CHAT = { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] };
const REFUSED = { error: { code: 401, message: 'Missing or invalid API key', metadata: { error_type: 'authentication' } } };

let harness: Harness;
let management: string;
let managementHash: string;
let sdk: OpenRouter;

beforeAll(async () => {
  harness = await startHarness({ models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3' }] }] });
  const issued = await createKey(harness.gateway.store, { accountId: harness.accountId, management: true, name: 'provisioning' });
  management = issued.key;
  managementHash = issued.hash;
  sdk = new OpenRouter({ serverURL: harness.baseUrl, apiKey: management, retryConfig: { strategy: 'none' } });
});

afterAll(async () => harness.close());

function manage(request: { method?: string; path: string; body?: unknown; key?: string }): Promise<RawReply> {
  return send(harness, { ...request, key: request.key ?? management });
}

interface WireKey { hash: string; name: string; disabled: boolean; limit: number | null; limit_remaining: number | null; limit_reset: string | null }

async function createdKey(body: Record<string, unknown>): Promise<{ key: string; data: WireKey }> {
  const reply = await manage({ path: '/keys', body });
  expect(reply.status, reply.text).toBe(201);
  return reply.json as { key: string; data: WireKey };
}

/** Every route the key can reach answers it the one identical 401. */
async function expectRefusedEverywhere(key: string): Promise<void> {
  for (const request of [{ path: '/key' }, { path: '/chat/completions', body: CHAT }, { path: '/credits' }, { path: '/generation?id=gen-x' }, { path: '/models/user' }]) {
    const reply = await send(harness, { ...request, key });
    expect(reply.status, request.path).toBe(401);
    expect(reply.json, request.path).toEqual(REFUSED);
  }
}

describe('@openrouter/sdk apiKeys against the key management API', () => {
  it('create, list, get, update and delete parse unmodified; the key is shown once, on create', async () => {
    const created = await sdk.apiKeys.create({ requestBody: { name: 'teammate', limit: 20, limitReset: 'weekly' } });
    expect(created.key).toMatch(/^sk-svc-v1-[0-9a-f]{64}$/);
    expect(created.data).toMatchObject({ name: 'teammate', limit: 20, limitRemaining: 20, limitReset: 'weekly', disabled: false, usage: 0, byokUsage: 0, includeByokInLimit: false, workspaceId: harness.workspaceId, creatorUserId: null, updatedAt: null });
    expect(created.data.hash).toBe(hashKey(created.key));
    expect(created.data.label).toMatch(/^sk-svc-v1-[0-9a-f]{3}\.\.\.[0-9a-f]{3}$/);

    const listed = await sdk.apiKeys.list();
    expect(listed.data.map((key) => key.hash)).toContain(created.data.hash);
    expect(JSON.stringify(listed)).not.toContain(created.key);

    const read = await sdk.apiKeys.get({ hash: created.data.hash });
    expect(read.data).toMatchObject({ hash: created.data.hash, name: 'teammate' });
    expect(JSON.stringify(read)).not.toContain(created.key);

    const updated = await sdk.apiKeys.update({ hash: created.data.hash, requestBody: { name: 'renamed', disabled: true, limit: 5, limitReset: 'daily' } });
    expect(updated.data).toMatchObject({ name: 'renamed', disabled: true, limit: 5, limitReset: 'daily' });
    expect(updated.data.updatedAt).not.toBeNull();

    expect(await sdk.apiKeys.delete({ hash: created.data.hash })).toEqual({ deleted: true });
    await expect(sdk.apiKeys.get({ hash: created.data.hash })).rejects.toThrow();
  });

  it('a key created with an expiry reads it back as an instant', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000);
    const created = await sdk.apiKeys.create({ requestBody: { name: 'expiring', expiresAt } });
    expect(created.data.expiresAt?.toISOString()).toBe(expiresAt.toISOString());
  });
});

describe('records', () => {
  it('a limit sent as a JSON number is stored exactly through its shortest decimal form, 1e-7 included', async () => {
    for (const [limit, exact] of [[0.1, '0.1'], [1e-7, '0.0000001'], [2.675, '2.675'], [0, '0']] as const) {
      const { data } = await createdKey({ name: `limit ${exact}`, limit });
      const row = await harness.gateway.store.db.selectFrom('api_keys').select('limit_units').where('hash', '=', data.hash).executeTakeFirstOrThrow();
      expect(row.limit_units).toBe(parseUsd(exact).toString());
      expect(data.limit).toBe(limit);
    }
  });

  it('usage and limit_remaining follow what the key was charged', async () => {
    const { key, data } = await createdKey({ name: 'spender', limit: 1, limit_reset: 'monthly' });
    const served = await send(harness, { path: '/chat/completions', body: CHAT, key });
    expect(served.status).toBe(200);
    const cost = (served.json as { usage: { cost: number } }).usage.cost;
    const read = (await manage({ path: `/keys/${data.hash}` })).json as { data: WireKey & { usage: number; usage_monthly: number } };
    expect(read.data.usage).toBe(cost);
    expect(read.data.usage_monthly).toBe(cost);
    expect(read.data.limit_remaining).toBe(Number((parseUsd('1') - parseUsd(String(cost))).toString()) / 1e24);
  });

  it('management keys are never listed, and their hash is 404 for get, update and delete', async () => {
    const listed = (await manage({ path: '/keys?include_disabled=true' })).json as { data: WireKey[] };
    expect(listed.data.map((key) => key.hash)).not.toContain(managementHash);
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const reply = await manage({ method, path: `/keys/${managementHash}`, ...(method === 'PATCH' && { body: { disabled: true } }) });
      expect(reply.status, method).toBe(404);
    }
  });

  it('disabled keys are listed only with include_disabled=true; offset pages newest first', async () => {
    const { data } = await createdKey({ name: 'quiet' });
    await manage({ method: 'PATCH', path: `/keys/${data.hash}`, body: { disabled: true } });
    const plain = (await manage({ path: '/keys' })).json as { data: WireKey[] };
    const all = (await manage({ path: '/keys?include_disabled=true' })).json as { data: WireKey[] };
    expect(plain.data.map((key) => key.hash)).not.toContain(data.hash);
    expect(all.data[0]?.hash).toBe(data.hash);
    const second = (await manage({ path: '/keys?include_disabled=true&offset=1' })).json as { data: WireKey[] };
    expect(second.data).toEqual(all.data.slice(1));
  });

  it('without workspace_id a key goes to the account\'s default workspace, whichever workspace the management key is in', async () => {
    const other = await createWorkspace(harness.gateway.store, { accountId: harness.accountId, name: 'Research' }, CLI_CHANGE);
    const elsewhere = await createKey(harness.gateway.store, { accountId: harness.accountId, workspaceId: other, management: true, name: 'research provisioning' });
    const reply = await send(harness, { path: '/keys', key: elsewhere.key, body: { name: 'default by default' } });
    expect(reply.status).toBe(201);
    expect((reply.json as { data: { workspace_id: string } }).data.workspace_id).toBe(harness.workspaceId);
    const placed = await send(harness, { path: '/keys', key: elsewhere.key, body: { name: 'in research', workspace_id: other } });
    expect((placed.json as { data: { workspace_id: string } }).data.workspace_id).toBe(other);
  });

  it('a workspace_id lists only that workspace\'s keys', async () => {
    const reply = await manage({ path: `/keys?workspace_id=${harness.workspaceId}` });
    expect(reply.status).toBe(200);
    expect(((reply.json as { data: { workspace_id: string }[] }).data).every((key) => key.workspace_id === harness.workspaceId)).toBe(true);
  });
});

describe('bad input is a 400 naming the field', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a negative limit', { name: 'x', limit: -1 }, 'limit'],
    ['a limit past 10^-24 USD', { name: 'x', limit: 1e-30 }, 'limit'],
    ['a limit above the largest spend limit (a billion USD)', { name: 'x', limit: 1e300 }, 'limit'],
    ['a limit as a string', { name: 'x', limit: '5' }, 'limit'],
    ['a limit_reset without a limit', { name: 'x', limit_reset: 'daily' }, 'limit_reset'],
    ['an unknown limit_reset', { name: 'x', limit: 1, limit_reset: 'hourly' }, 'limit_reset'],
    ['an expiry in the past', { name: 'x', expires_at: '2001-01-01T00:00:00Z' }, 'expires_at'],
    ['an expiry that is not an instant', { name: 'x', expires_at: 'tomorrow' }, 'expires_at'],
    ['an expiry on a day that does not exist', { name: 'x', expires_at: '2099-02-30T00:00:00Z' }, 'expires_at'],
    ['an expiry without its offset', { name: 'x', expires_at: '2099-01-01T00:00:00' }, 'expires_at'],
    ['a workspace of no account', { name: 'x', workspace_id: 'ws_nothing' }, 'workspace_id'],
    ['a blank name', { name: '   ' }, 'name'],
    ['no name', { limit: 1 }, 'name'],
    ['an unknown member', { name: 'x', colour: 'red' }, 'colour'],
    ['a creator who is no person of the account', { name: 'x', creator_user_id: 'user_nobody' }, 'creator_user_id'],
  ];

  it.each(cases)('POST /keys with %s', async (_what, body, field) => {
    const reply = await manage({ path: '/keys', body });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.json).toMatchObject({ error: { code: 400, metadata: { error_type: 'invalid_request', field } } });
  });

  it('another account\'s workspace is refused as no workspace of the account', async () => {
    const other = await createAccount(harness.gateway.store, { name: 'other' });
    const reply = await manage({ path: '/keys', body: { name: 'x', workspace_id: other.workspaceId } });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ error: { metadata: { field: 'workspace_id' } } });
  });

  it('PATCH refuses a negative limit, a blank name and a window without a limit', async () => {
    const { data } = await createdKey({ name: 'patched' });
    for (const [body, field] of [[{ limit: -0.5 }, 'limit'], [{ name: ' ' }, 'name'], [{ limit_reset: 'daily' }, 'limit_reset'], [{ disabled: 'yes' }, 'disabled']] as const) {
      const reply = await manage({ method: 'PATCH', path: `/keys/${data.hash}`, body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.json).toMatchObject({ error: { metadata: { field } } });
    }
  });

  it('GET /keys refuses an unknown parameter, a negative offset and include_disabled other than true/false', async () => {
    for (const [query, field] of [['colour=red', 'colour'], ['offset=-1', 'offset'], ['offset=x', 'offset'], ['include_disabled=yes', 'include_disabled']]) {
      const reply = await manage({ path: `/keys?${query}` });
      expect(reply.status, query).toBe(400);
      expect(reply.json).toMatchObject({ error: { metadata: { field } } });
    }
  });
});

describe('a key the caller cannot see is one 404', () => {
  it('another account\'s hash, an unknown hash, a malformed one and a deleted key: 404 alike for get, update and delete', async () => {
    const other = await createAccount(harness.gateway.store, { name: 'neighbour' });
    const { data: deleted } = await createdKey({ name: 'gone' });
    expect((await manage({ method: 'DELETE', path: `/keys/${deleted.hash}` })).status).toBe(200);
    const hashes = [hashKey(other.key), 'f'.repeat(64), 'not-a-hash', deleted.hash];
    const bodies = new Set<string>();
    for (const hash of hashes) {
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const reply = await manage({ method, path: `/keys/${hash}`, ...(method === 'PATCH' && { body: { name: 'mine now' } }) });
        expect(reply.status, `${method} ${hash}`).toBe(404);
        bodies.add(reply.text);
      }
    }
    expect(bodies.size).toBe(1);
    const neighbour = await harness.gateway.store.db.selectFrom('api_keys').select(['name', 'revoked_at']).where('hash', '=', hashKey(other.key)).executeTakeFirstOrThrow();
    expect(neighbour).toEqual({ name: 'Default', revoked_at: null });
  });
});

describe('a changed key is refused at once, on every route', () => {
  it('after disable the key gets the one identical 401 everywhere; enabled again it works', async () => {
    const { key, data } = await createdKey({ name: 'toggled' });
    expect((await send(harness, { path: '/chat/completions', body: CHAT, key })).status).toBe(200);
    expect((await manage({ method: 'PATCH', path: `/keys/${data.hash}`, body: { disabled: true } })).status).toBe(200);
    await expectRefusedEverywhere(key);
    expect((await manage({ method: 'PATCH', path: `/keys/${data.hash}`, body: { disabled: false } })).status).toBe(200);
    expect((await send(harness, { path: '/chat/completions', body: CHAT, key })).status).toBe(200);
  });

  it('after delete the key gets the one identical 401 everywhere', async () => {
    const { key, data } = await createdKey({ name: 'deleted' });
    expect((await send(harness, { path: '/key', key })).status).toBe(200);
    expect((await manage({ method: 'DELETE', path: `/keys/${data.hash}` })).json).toEqual({ deleted: true });
    await expectRefusedEverywhere(key);
  });

  it('past its expires_at the key gets the one identical 401 everywhere', async () => {
    const { key } = await createdKey({ name: 'brief', expires_at: new Date(Date.now() + 1500).toISOString() });
    expect((await send(harness, { path: '/key', key })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    await expectRefusedEverywhere(key);
  });

  it('a new limit binds the next request: a limit of 0 is refused with 402 naming the key scope', async () => {
    const { key, data } = await createdKey({ name: 'capped' });
    expect((await send(harness, { path: '/chat/completions', body: CHAT, key })).status).toBe(200);
    expect((await manage({ method: 'PATCH', path: `/keys/${data.hash}`, body: { limit: 0 } })).status).toBe(200);
    const refused = await send(harness, { path: '/chat/completions', body: CHAT, key });
    expect(refused.status).toBe(402);
    expect(refused.json).toMatchObject({ error: { metadata: { error_type: 'payment_required', scope: 'key' } } });
  });
});

describe('scopes', () => {
  it('an inference key gets the one 401 on the management routes', async () => {
    for (const request of [{ path: '/keys' }, { path: '/keys', body: { name: 'x' } }, { path: '/audit' }, { path: `/keys/${hashKey(harness.key)}` }]) {
      const reply = await send(harness, request);
      expect(reply.status, request.path).toBe(401);
      expect(reply.json).toEqual(REFUSED);
    }
  });

  it('every management route counts against the key and carries the X-RateLimit headers', async () => {
    const { data } = await createdKey({ name: 'counted' });
    for (const request of [{ path: '/keys' }, { path: `/keys/${data.hash}` }, { path: '/audit' }, { method: 'PATCH', path: `/keys/${data.hash}`, body: { name: 'n' } }, { method: 'DELETE', path: `/keys/${data.hash}` }]) {
      const reply = await manage(request);
      expect(reply.status, request.path).toBeLessThan(300);
      expect(reply.headers.get('x-ratelimit-limit'), request.path).toMatch(/^\d+$/);
      expect(reply.headers.get('x-ratelimit-remaining'), request.path).toMatch(/^\d+$/);
      expect(reply.headers.get('x-ratelimit-reset'), request.path).toMatch(/^\d+$/);
    }
  });
});

describe('GET /audit', () => {
  it('every change through the API is audited under the management key, newest first, without secrets', async () => {
    const { key, data } = await createdKey({ name: 'audited', limit: 2 });
    await manage({ method: 'PATCH', path: `/keys/${data.hash}`, body: { disabled: true, limit: 3, limit_reset: 'daily' } });
    await manage({ method: 'DELETE', path: `/keys/${data.hash}` });
    const reply = await manage({ path: '/audit?limit=3' });
    expect(reply.status).toBe(200);
    const page = reply.json as { data: { action: string; target: string; actor: unknown; via: string; address: string; before: unknown; after: unknown }[]; next_cursor: string | null };
    expect(page.data.map((event) => event.action)).toEqual(['key.revoke', 'key.update', 'key.create']);
    for (const event of page.data) {
      expect(event).toMatchObject({ target: data.hash, actor: { kind: 'management_key', id: managementHash }, via: 'api', address: expect.stringMatching(/127\.0\.0\.1/) });
    }
    expect(page.data[1]).toMatchObject({ before: { disabled: false, limit_usd: '2', limit_reset: null }, after: { disabled: true, limit_usd: '3', limit_reset: 'daily' } });
    expect(page.next_cursor).not.toBeNull();
    expect(reply.text).not.toContain(key);
    expect(reply.text).not.toContain(management);
  });

  it('pages with after=next_cursor until next_cursor is null, every event once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const reply = await manage({ path: `/audit?limit=2${cursor ? `&after=${cursor}` : ''}` });
      const page = reply.json as { data: { id: string }[]; next_cursor: string | null };
      seen.push(...page.data.map((event) => event.id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    const whole = ((await manage({ path: '/audit?limit=100' })).json as { data: { id: string }[] }).data.map((event) => event.id);
    expect(seen).toEqual(whole);
    expect([...seen].sort().reverse()).toEqual(seen);
  });

  it('refuses a limit outside 1..100 and a malformed cursor, naming the parameter', async () => {
    for (const [query, field] of [['limit=0', 'limit'], ['limit=101', 'limit'], ['limit=x', 'limit'], ['after=nope', 'after'], ['since=1', 'since']]) {
      const reply = await manage({ path: `/audit?${query}` });
      expect(reply.status, query).toBe(400);
      expect(reply.json).toMatchObject({ error: { metadata: { field } } });
    }
  });

  it('a PATCH that changes nothing writes nothing', async () => {
    const { data } = await createdKey({ name: 'unchanged' });
    const before = ((await manage({ path: '/audit?limit=1' })).json as { data: { id: string }[] }).data[0]?.id;
    const reply = await manage({ method: 'PATCH', path: `/keys/${data.hash}`, body: { include_byok_in_limit: false } });
    expect(reply.status).toBe(200);
    expect((reply.json as { data: { updated_at: string | null } }).data.updated_at).toBeNull();
    expect(((await manage({ path: '/audit?limit=1' })).json as { data: { id: string }[] }).data[0]?.id).toBe(before);
  });

  it('shows only the caller\'s account', async () => {
    const other = await createAccount(harness.gateway.store, { name: 'private' });
    const reply = await manage({ path: '/audit?limit=100' });
    expect(reply.text).not.toContain(other.accountId);
  });
});
