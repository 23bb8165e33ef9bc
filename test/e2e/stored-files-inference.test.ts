import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { accountMoney, send, startHarness, type Harness } from './harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/reader', endpoints: [{ provider: 'sim-a', upstream_model: 'chat', input_modalities: ['text', 'file', 'image'] }] },
      { id: 'acme/claude', endpoints: [{ provider: 'sim-anthropic', upstream_model: 'claude', input_modalities: ['text', 'file', 'image'] }] },
    ],
    fileSettings: { files: { max_upload_bytes: 40 * 1024 * 1024 } },
  });
});

afterAll(async () => {
  await harness?.close();
});

async function upload(content: string | Uint8Array<ArrayBuffer>, filename: string, key = harness.key): Promise<string> {
  const form = new FormData();
  form.set('purpose', 'user_data');
  form.set('file', new Blob([content], { type: 'application/pdf' }), filename);
  const response = await fetch(`${harness.baseUrl}/files`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

function chatWithFiles(...files: Array<Record<string, unknown>>) {
  return {
    model: 'acme/reader',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarise' }, ...files.map((file) => ({ type: 'file', file }))] }],
  };
}

/** The `file` parts the simulator received in the last request. */
function forwardedFiles(): Array<Record<string, unknown>> {
  const body = harness.sim.requests().at(-1)?.body as { messages: Array<{ content: unknown }> };
  return body.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : []))
    .filter((part: { type?: string }) => part.type === 'file')
    .map((part: { file: Record<string, unknown> }) => part.file);
}

describe('a stored file named in an inference request (spec 01 rule 14)', () => {
  it('is read under the caller\'s account and sent to the endpoint as a data URL; the id is never forwarded', async () => {
    const id = await upload('%PDF-1.7 a small document', 'report.pdf');
    const reply = await send(harness, { path: '/chat/completions', body: chatWithFiles({ file_id: id }) });
    expect(reply.status).toBe(200);
    const [file] = forwardedFiles();
    expect(file).toEqual({ filename: 'report.pdf', file_data: `data:application/pdf;base64,${Buffer.from('%PDF-1.7 a small document').toString('base64')}` });
    expect(JSON.stringify(harness.sim.requests().at(-1)?.body)).not.toContain(id);
  });

  it('reaches the messages and responses dialects too', async () => {
    const id = await upload('%PDF-1.7 for the other dialects', 'other.pdf');
    const messages = await send(harness, {
      path: '/messages',
      body: { model: 'acme/claude', max_tokens: 16, messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'file', file_id: id } }, { type: 'text', text: 'Read' }] }] },
    });
    expect(messages.status).toBe(200);
    expect(JSON.stringify(harness.sim.requests().at(-1)?.body)).toContain(Buffer.from('%PDF-1.7 for the other dialects').toString('base64'));
    const responses = await send(harness, {
      path: '/responses',
      body: { model: 'acme/reader', input: [{ role: 'user', content: [{ type: 'input_file', file_id: id }, { type: 'input_text', text: 'Read' }] }] },
    });
    expect(responses.status).toBe(200);
    expect(forwardedFiles()[0]?.file_data).toMatch(/^data:application\/pdf;base64,/);
  });

  it('is refused before any provider call and any charge: both file_id and file_data 400, more than 16 files 400, unreadable 404, over 32 MiB 413', async () => {
    const id = await upload('%PDF small', 'small.pdf');
    const stranger = await createAccount(harness.gateway.store, { name: 'stranger', creditsUsd: '5' });
    const theirs = await upload('%PDF theirs', 'theirs.pdf', stranger.key);
    const deleted = await upload('%PDF gone', 'gone.pdf');
    expect((await send(harness, { method: 'DELETE', path: `/files/${deleted}` })).status).toBe(200);
    const big = await upload(new Uint8Array(17 * 1024 * 1024), 'big.pdf');
    const requestsBefore = harness.sim.requests().length;
    const moneyBefore = await accountMoney(harness);
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [chatWithFiles({ file_id: id, file_data: 'data:application/pdf;base64,AA==' }), 400, /^messages\[0\]\.content\[1\]\.file: names both file_id and file_data/],
      [chatWithFiles(...Array.from({ length: 17 }, () => ({ file_id: id }))), 400, /^messages: names 17 stored files; at most 16/],
      [chatWithFiles({ file_id: theirs }), 404, /^messages\[0\]\.content\[1\]\.file\.file_id: no stored file/],
      [chatWithFiles({ file_id: deleted }), 404, /no stored file/],
      [chatWithFiles({ file_id: 'file-malformed!' }), 404, /no stored file/],
      [chatWithFiles({ file_id: big }, { file_id: big }), 413, /at most 33554432 in one request/],
    ];
    for (const [body, status, message] of cases) {
      const reply = await send(harness, { path: '/chat/completions', body });
      expect(reply.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect((reply.json as { error: { message: string } }).error.message).toMatch(message);
    }
    expect(harness.sim.requests().length).toBe(requestsBefore);
    expect(await accountMoney(harness)).toEqual(moneyBefore);
  });
});
