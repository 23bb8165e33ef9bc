import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/reader', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2', input_modalities: ['text', 'image', 'file'] }] },
      { id: 'acme/voice', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3;audio=1', output_modalities: ['text', 'audio'] }] },
      { id: 'acme/refuser', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;refusal' }] },
    ],
  });
});

afterAll(async () => harness.close());

function lastUpstreamMessages(): unknown[] {
  return (harness.sim.requests().at(-1)?.body as { messages: unknown[] }).messages;
}

function user(content: unknown[]) {
  return { model: 'acme/reader', input: [{ role: 'user', content }] };
}

describe('content blocks a user turn may carry (rule 1)', () => {
  it('input_image and input_file reach the endpoint as image and file parts', async () => {
    const reply = await send(harness, {
      path: '/responses',
      body: user([
        { type: 'input_text', text: 'Compare' },
        { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'high' },
        { type: 'input_file', filename: 'notes.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' },
        { type: 'input_file', file_url: 'https://example.com/b.pdf' },
      ]),
    });
    expect(reply.status).toBe(200);
    expect(lastUpstreamMessages()).toEqual([{
      role: 'user',
      content: [
        { type: 'text', text: 'Compare' },
        { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'high' } },
        { type: 'file', file: { filename: 'notes.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } },
        { type: 'file', file: { file_data: 'https://example.com/b.pdf' } },
      ],
    }]);
  });

  it('a stored file the account cannot read is 404', async () => {
    const reply = await send(harness, { path: '/responses', body: user([{ type: 'input_file', file_id: 'file-missing' }]) });
    expect(reply.status).toBe(404);
    expect((reply.json as ErrorEnvelope).error.metadata.error_type).toBe('not_found');
    expect((reply.json as ErrorEnvelope).error.message).toMatch(/^input\[0\]\.content\[0\]\.file_id: /);
  });

  it('file errors name the input path, after instructions and in a function result', async () => {
    const reply = await send(harness, {
      path: '/responses',
      body: { ...user([{ type: 'input_text', text: 'Read' }, { type: 'input_file', file_id: 'file-missing' }]), instructions: 'Be brief' },
    });
    expect(reply.status).toBe(404);
    expect((reply.json as ErrorEnvelope).error.message).toMatch(/^input\[0\]\.content\[1\]\.file_id: /);
    const returned = await send(harness, {
      path: '/responses',
      body: {
        model: 'acme/reader',
        input: [
          { type: 'function_call', call_id: 'c1', name: 'fetch', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_file', file_id: 'file-missing' }] },
        ],
      },
    });
    expect(returned.status).toBe(404);
    expect((returned.json as ErrorEnvelope).error.message).toMatch(/^input\[1\]\.output\[0\]\.file_id: /);
  });

  it('a file naming both file_id and file_data is 400 naming the block', async () => {
    const reply = await send(harness, { path: '/responses', body: user([{ type: 'input_file', file_id: 'file-1', file_data: 'data:application/pdf;base64,JVBERi0=' }]) });
    expect(reply.status).toBe(400);
    expect((reply.json as ErrorEnvelope).error.metadata.field).toBe('input[0].content[0]');
  });
});

describe('reply content beyond text', () => {
  it('speech is an output_audio part with data, transcript, id and expires_at', async () => {
    const response = await harness.client.responses.create({ model: 'acme/voice', input: 'Speak' });
    const message = response.output[0];
    const part = (message?.type === 'message' ? message.content[0] : undefined) as unknown as Record<string, unknown> | undefined;
    expect(part?.type).toBe('output_audio');
    expect(part?.transcript).toBe('Hello from the');
    expect(Buffer.from(String(part?.data), 'base64').subarray(0, 4).toString()).toBe('RIFF');
    expect(typeof part?.id).toBe('string');
    expect(typeof part?.expires_at).toBe('number');
  });

  it('a refusal is a refusal part of the message', async () => {
    const response = await harness.client.responses.create({ model: 'acme/refuser', input: 'Do something bad' });
    const message = response.output[0];
    expect(message?.type === 'message' ? message.content : undefined).toEqual([{ type: 'refusal', refusal: "I can't help with that." }]);
  });
});
