import { request } from 'node:http';
import { OpenRouter } from '@openrouter/sdk';
import { NotFoundError, toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createKey } from '../../src/accounts/accounts.js';
import { POSTGRES_REACHABLE, freshPostgresDatabase, type ScratchDatabase } from '../support/store-engines.js';
import { send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

const CHAT = { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] };
const MiB = 1024 * 1024;

/** The upload limit of the test gateway: above the 8 MiB body limit, so a file past the body limit still fits. */
const LIMIT = 12 * MiB;

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ models: [CHAT], fileSettings: { files: { max_upload_bytes: LIMIT } } });
});

afterAll(async () => harness.close());

/** `POST /files` with a form of the given parts, as curl -F would send it. */
async function upload(parts: Record<string, string | { bytes: Buffer<ArrayBuffer>; filename: string; type?: string }>, key = harness.key) {
  const form = new FormData();
  for (const [name, part] of Object.entries(parts)) {
    if (typeof part === 'string') form.append(name, part);
    else form.append(name, new Blob([part.bytes], { type: part.type ?? 'application/octet-stream' }), part.filename);
  }
  const response = await fetch(`${harness.baseUrl}/files`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  return { status: response.status, json: await response.json() as Record<string, unknown> & Partial<ErrorEnvelope> };
}

async function storedRows(): Promise<{ files: number; blobs: number; chunks: number }> {
  const db = harness.gateway.store.db;
  return {
    files: (await db.selectFrom('stored_files').select('id').execute()).length,
    blobs: (await db.selectFrom('blobs').select('id').execute()).length,
    chunks: (await db.selectFrom('blob_chunks').select('blob_id').execute()).length,
  };
}

describe('the official openai client', () => {
  it('files.create, retrieve, list, content and delete work unmodified', async () => {
    const text = '{"custom_id":"a","method":"POST","url":"/v1/chat/completions","body":{}}\n';
    const created = await harness.client.files.create({ file: await toFile(Buffer.from(text), 'requests.jsonl', { type: 'application/jsonl' }), purpose: 'batch' });
    expect(created).toMatchObject({ object: 'file', bytes: text.length, filename: 'requests.jsonl', purpose: 'batch', status: 'processed' });
    expect(created.id).toMatch(/^file-/);
    expect(created.expires_at).toBe(created.created_at + 48 * 3600);

    expect(await harness.client.files.retrieve(created.id)).toEqual(created);
    const listed = [];
    for await (const file of harness.client.files.list()) listed.push(file.id);
    expect(listed[0]).toBe(created.id);
    expect(await (await harness.client.files.content(created.id)).text()).toBe(text);

    expect(await harness.client.files.delete(created.id)).toMatchObject({ id: created.id, object: 'file', deleted: true });
    await expect(harness.client.files.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('list pages newest first through has_more and the last id', async () => {
    const account = await createAccount(harness.gateway.store, { name: 'pages', creditsUsd: '1' });
    const client = harness.client.withOptions({ apiKey: account.key });
    const ids = [];
    for (let index = 0; index < 3; index += 1) ids.push((await client.files.create({ file: await toFile(Buffer.from(`${index}`), `${index}.txt`), purpose: 'user_data' })).id);
    const page = await client.files.list({ limit: 2 });
    expect(page.data.map((file) => file.id)).toEqual([ids[2], ids[1]]);
    expect(page.has_more).toBe(true);
    const seen = [];
    for await (const file of client.files.list({ limit: 2 })) seen.push(file.id);
    expect(seen).toEqual([...ids].reverse());
  });
});

describe('@openrouter/sdk', () => {
  it('files.upload, retrieve, list, download and delete work unmodified', async () => {
    const client = new OpenRouter({ serverURL: harness.baseUrl, apiKey: harness.key, retryConfig: { strategy: 'none' } });
    const uploaded = await client.files.upload({ requestBody: { file: { fileName: 'notes.txt', content: new TextEncoder().encode('hello files') } } });
    expect(uploaded).toMatchObject({ shape: 'openai', object: 'file', filename: 'notes.txt', purpose: 'user_data', bytes: 11, status: 'processed' });
    const id = (uploaded as { id: string }).id;
    expect(await client.files.retrieve({ fileId: id })).toMatchObject({ shape: 'openai', id });
    const page = await client.files.list();
    expect(page.result).toMatchObject({ shape: 'openai', hasMore: false });
    expect((page.result as { data: { id: string }[] }).data.map((file) => file.id)).toContain(id);
    const stream = await client.files.download({ fileId: id });
    expect(await new Response(stream).text()).toBe('hello files');
    expect(await client.files.delete({ fileId: id })).toMatchObject({ shape: 'openai', id, deleted: true });
  });
});

describe('POST /files', () => {
  it('an upload larger than the 8 MiB body limit is streamed into storage and reads back whole', async () => {
    const bytes = Buffer.alloc(9 * MiB + 3, 0x41);
    const created = await upload({ purpose: 'assistants', file: { bytes, filename: 'big.bin' } });
    expect(created.status).toBe(200);
    const content = await fetch(`${harness.baseUrl}/files/${String(created.json.id)}/content`, { headers: { authorization: `Bearer ${harness.key}` } });
    expect(content.headers.get('content-type')).toBe('application/octet-stream');
    expect(content.headers.get('content-length')).toBe(String(bytes.length));
    expect(Buffer.from(await content.arrayBuffer()).equals(bytes)).toBe(true);
    await send(harness, { method: 'DELETE', path: `/files/${String(created.json.id)}` });
  });

  it('a file over files.max_upload_bytes is the 413 naming file, and nothing of it is stored', async () => {
    const before = await storedRows();
    const refused = await upload({ purpose: 'batch', file: { bytes: Buffer.alloc(LIMIT + 1), filename: 'huge.jsonl' } });
    expect(refused.status).toBe(413);
    expect(refused.json.error).toMatchObject({ code: 413, metadata: { error_type: 'payload_too_large', field: 'file' } });
    expect(await storedRows()).toEqual(before);
  });

  it('a caller that leaves half-way through its upload leaves nothing stored', async () => {
    const before = await storedRows();
    const boundary = 'leaving';
    const leaving = request(`${harness.baseUrl}/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${harness.key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': 10 * MiB },
    });
    leaving.on('error', () => undefined);
    leaving.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n`);
    leaving.write(Buffer.alloc(3 * MiB, 1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    leaving.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await storedRows()).toEqual(before);
  });

  it('a purpose that is not one of OpenAI\'s is the 400 naming purpose, and nothing is stored', async () => {
    const before = await storedRows();
    for (const order of [['purpose', 'file'], ['file', 'purpose']]) {
      const parts = Object.fromEntries(order.map((name) => [name, name === 'purpose' ? 'training' : { bytes: Buffer.from('x'), filename: 'x.txt' }]));
      const refused = await upload(parts);
      expect(refused.status).toBe(400);
      expect(refused.json.error).toMatchObject({ message: expect.stringMatching(/^purpose: must be one of assistants, batch, fine-tune, vision, user_data, evals/), metadata: { error_type: 'invalid_request', field: 'purpose' } });
    }
    expect(await storedRows()).toEqual(before);
  });

  it('a form without a file, with an unknown field, or a JSON body is the 400 naming what is wrong', async () => {
    expect((await upload({ purpose: 'batch' })).json.error?.metadata).toMatchObject({ field: 'file' });
    expect((await upload({ purpose: 'batch', file: 'not a file part' })).json.error?.metadata).toMatchObject({ field: 'file' });
    expect((await upload({ colour: 'blue', file: { bytes: Buffer.from('x'), filename: 'x.txt' } })).json.error?.metadata).toMatchObject({ field: 'colour' });
    const json = await send(harness, { path: '/files', body: { purpose: 'batch' } });
    expect(json.status).toBe(400);
    expect((json.json as ErrorEnvelope).error.message).toMatch(/^body: must be a multipart form/);
    const text = await send(harness, { path: '/files', rawBody: 'x', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(400);
    expect((text.json as ErrorEnvelope).error.message).toMatch(/^body: must be a multipart form/);
  });

  it('expires_after shortens a file\'s life, and beyond 48 hours is refused naming it', async () => {
    const shorter = await upload({ purpose: 'batch', 'expires_after[anchor]': 'created_at', 'expires_after[seconds]': '3600', file: { bytes: Buffer.from('x'), filename: 'x.txt' } });
    expect(Number(shorter.json.expires_at) - Number(shorter.json.created_at)).toBe(3600);
    const longer = await upload({ purpose: 'batch', 'expires_after[anchor]': 'created_at', 'expires_after[seconds]': '2592000', file: { bytes: Buffer.from('x'), filename: 'x.txt' } });
    expect(longer.json.error?.metadata).toMatchObject({ field: 'expires_after[seconds]' });
  });
});

describe('reading and deleting', () => {
  it('another account\'s, an unknown, a malformed and a deleted id are one 404', async () => {
    const created = await upload({ purpose: 'user_data', file: { bytes: Buffer.from('mine'), filename: 'mine.txt', type: 'text/plain' } });
    const id = String(created.json.id);
    const deleted = String((await upload({ purpose: 'user_data', file: { bytes: Buffer.from('gone'), filename: 'gone.txt' } })).json.id);
    await send(harness, { method: 'DELETE', path: `/files/${deleted}` });
    const other = await createAccount(harness.gateway.store, { name: 'other', creditsUsd: '1' });
    const attempts = [[other.key, id], [harness.key, 'file-0000000000000000000000000000abcd'], [harness.key, 'file_%2E%2E'], [harness.key, deleted]] as const;
    const bodies = new Set<string>();
    for (const [key, fileId] of attempts) {
      for (const [method, path] of [['GET', `/files/${fileId}`], ['GET', `/files/${fileId}/content`], ['DELETE', `/files/${fileId}`]] as const) {
        const reply = await send(harness, { method, path, key });
        expect(reply.status).toBe(404);
        bodies.add(reply.text);
      }
    }
    expect([...bodies]).toEqual([JSON.stringify({ error: { code: 404, message: 'No such file', metadata: { error_type: 'not_found' } } })]);
    const mine = await send(harness, { path: `/files/${id}/content` });
    expect(mine.headers.get('content-type')).toBe('text/plain');
    expect(mine.headers.get('x-content-type-options')).toBe('nosniff');
    expect(mine.headers.get('content-disposition')).toBe('attachment; filename="mine.txt"; filename*=UTF-8\'\'mine.txt');
    expect(mine.text).toBe('mine');
  });

  it('a management key, or none, is the one 401', async () => {
    const management = await createKey(harness.gateway.store, { accountId: harness.accountId, name: 'mgmt', management: true });
    expect((await send(harness, { path: '/files', key: management.key })).status).toBe(401);
    expect((await send(harness, { path: '/files', key: null })).status).toBe(401);
  });

  it('list parameters out of range are the 400 naming them', async () => {
    for (const [query, field] of [['limit=0', 'limit'], ['after=gen-1', 'after'], ['order=up', 'order'], ['purpose=training', 'purpose'], ['page=2', 'page']] as const) {
      const reply = await send(harness, { path: `/files?${query}` });
      expect(reply.status).toBe(400);
      expect((reply.json as ErrorEnvelope).error.metadata.field).toBe(field);
    }
  });
});

describe.runIf(POSTGRES_REACHABLE)('while the key store cannot be reached', () => {
  let keys: ScratchDatabase;
  let gateway: Harness;

  beforeAll(async () => {
    keys = await freshPostgresDatabase();
    gateway = await startHarness({ models: [CHAT], keyStoreUrl: keys.url });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('uploads and content reads answer 503 server with Retry-After, nothing is stored, /readyz says why and stays 200, and chat is served', async () => {
    const form = () => {
      const body = new FormData();
      body.append('purpose', 'batch');
      body.append('file', new Blob([Buffer.alloc(2 * MiB, 1)]), 'a.jsonl');
      return body;
    };
    const post = () => fetch(`${gateway.baseUrl}/files`, { method: 'POST', headers: { authorization: `Bearer ${gateway.key}` }, body: form() });
    const stored = await (await post()).json() as { id: string };
    await keys.drop();
    const refused = await post();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ error: { code: 503, metadata: { error_type: 'server' } } });
    const read = await send(gateway, { path: `/files/${stored.id}/content` });
    expect(read.status).toBe(503);
    expect((await send(gateway, { path: `/files/${stored.id}` })).status).toBe(200);
    const rows = await gateway.gateway.store.db.selectFrom('blobs').select('id').execute();
    expect(rows).toHaveLength(1);
    // the instance still serves everything else: it stays in its load balancer, saying what is missing
    const ready = await fetch(`${gateway.gateway.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ checks: expect.arrayContaining([expect.objectContaining({ name: 'key store', ok: false })]) });
    expect((await send(gateway, { path: '/chat/completions', method: 'POST', body: { model: CHAT.id, messages: [{ role: 'user', content: 'Hi' }] } })).status).toBe(200);
  });
});
