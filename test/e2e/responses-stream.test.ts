import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { readSse, send, startHarness, type Harness } from './harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=4' }] },
      { id: 'acme/failing', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;fail_after=2' }] },
      { id: 'acme/down', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;error=500' }] },
      { id: 'acme/slow-down', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;error=500;ttft=2000' }] },
      { id: 'acme/slow', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3;ttft=2000' }] },
      { id: 'acme/picture', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=1;image=2x2', output_modalities: ['text', 'image'] }] },
      { id: 'acme/voice', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3;audio=1', output_modalities: ['text', 'audio'] }] },
    ],
    // long enough that an immediate upstream error is answered before the stream is committed, on a busy machine too
    settings: { keepAliveMs: 600 },
  });
});

afterAll(async () => harness.close());

interface NamedEvent {
  name: string;
  data: Record<string, unknown> & { type: string; sequence_number: number };
}

/** The raw stream as named events, in order. */
async function rawEvents(body: Record<string, unknown>): Promise<{ status: number; text: string; events: NamedEvent[]; headers: Headers }> {
  const reply = await send(harness, { path: '/responses', body: { stream: true, ...body } });
  const events: NamedEvent[] = [];
  for (const block of reply.text.split('\n\n')) {
    const name = /^event: (.+)$/m.exec(block)?.[1];
    const data = /^data: (.+)$/m.exec(block)?.[1];
    if (name && data) events.push({ name, data: JSON.parse(data) as NamedEvent['data'] });
  }
  return { status: reply.status, text: reply.text, events, headers: reply.headers };
}

describe('a streamed response', () => {
  it('the official client reads created, in_progress, the text events and completed, in sequence', async () => {
    const stream = await harness.client.responses.create({ model: 'acme/chat', input: 'Hello', stream: true });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const deltas = events.filter((event) => event.type === 'response.output_text.delta');
    expect(deltas.map((event) => event.delta).join('')).toBe('Hello from the provider');
    const done = events.find((event) => event.type === 'response.output_text.done');
    expect(done?.type === 'response.output_text.done' && done.text).toBe('Hello from the provider');
    const completed = events.at(-1);
    if (completed?.type !== 'response.completed') throw new Error('no response.completed');
    expect(completed.response.status).toBe('completed');
    expect(completed.response.usage?.output_tokens).toBe(4);
    expect(completed.response.output[0]?.type === 'message' && completed.response.output[0].content[0]).toMatchObject({ text: 'Hello from the provider' });
  });

  it('the client stream helper assembles the final response', async () => {
    const final = await harness.client.responses.stream({ model: 'acme/chat', input: 'Hello' }).finalResponse();
    expect(final.output_text).toBe('Hello from the provider');
    expect(final.status).toBe('completed');
  });

  it('every event is named after its type, and there is no [DONE]', async () => {
    const { status, text, events, headers } = await rawEvents({ model: 'acme/chat', input: 'Hello' });
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(headers.get('x-generation-id')).toMatch(/^gen-/);
    for (const event of events) expect(event.name).toBe(event.data.type);
    expect(text).not.toContain('[DONE]');
    expect(events.at(-1)?.name).toBe('response.completed');
  });

  it('a reply ended by the ceiling completes with status incomplete', async () => {
    const { events } = await rawEvents({ model: 'acme/chat', input: 'Hello', max_output_tokens: 2 });
    const last = events.at(-1);
    expect(last?.name).toBe('response.completed');
    expect(last?.data.response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
  });

  it('a picture arrives whole in content_part.added, repeated in content_part.done', async () => {
    const { events } = await rawEvents({ model: 'acme/picture', input: 'Draw' });
    const parts = events.filter((event) => event.name.startsWith('response.content_part.'));
    const image = parts.filter((event) => (event.data.part as { type: string }).type === 'output_image');
    expect(image.map((event) => event.name)).toEqual(['response.content_part.added', 'response.content_part.done']);
    expect(image[0]?.data.part).toEqual(image[1]?.data.part);
    expect((image[0]?.data.part as { image_url: string }).image_url).toMatch(/^data:image\/png;base64,/);
  });

  it('speech arrives as audio and transcript deltas, then both dones before the part is done', async () => {
    const { events } = await rawEvents({ model: 'acme/voice', input: 'Speak' });
    const names = events.map((event) => event.name);
    expect(names).toContain('response.output_audio.delta');
    const transcript = events.filter((event) => event.name === 'response.output_audio.transcript.delta').map((event) => event.data.delta).join('');
    expect(transcript).toBe('Hello from the');
    const audioDone = names.indexOf('response.output_audio.done');
    const transcriptDone = names.indexOf('response.output_audio.transcript.done');
    const partDone = names.indexOf('response.content_part.done');
    expect(audioDone).toBeGreaterThan(names.lastIndexOf('response.output_audio.delta'));
    expect(transcriptDone).toBeGreaterThan(audioDone);
    expect(partDone).toBeGreaterThan(transcriptDone);
    const part = events[partDone]?.data.part as { type: string; data: string; transcript: string };
    expect(part.type).toBe('output_audio');
    expect(part.transcript).toBe('Hello from the');
    expect(Buffer.from(part.data, 'base64').subarray(0, 4).toString()).toBe('RIFF');
  });
});

describe('failures', () => {
  it('after commit: event error, then response.failed with server_error and the same message ending with the diagnostic', async () => {
    const { status, events } = await rawEvents({ model: 'acme/failing', input: 'Hello' });
    expect(status).toBe(200);
    const names = events.map((event) => event.name);
    expect(names.slice(-2)).toEqual(['error', 'response.failed']);
    const error = events.at(-2)?.data;
    expect(error).toMatchObject({ type: 'error', code: null, param: null });
    expect(String(error?.message)).toMatch(/simulated mid-stream failure$/);
    const failed = events.at(-1)?.data.response as { status: string; error: { code: string; message: string } };
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ code: 'server_error', message: error?.message });
    expect(names).not.toContain('response.completed');
  });

  it('the official client yields the error event and then response.failed', async () => {
    const stream = await harness.client.responses.create({ model: 'acme/failing', input: 'Hello', stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types.slice(-2)).toEqual(['error', 'response.failed']);
  });

  it('before commit: an HTTP error whose body is {error:{message, type: invalid_request_error, code: null, metadata}}', async () => {
    const reply = await send(harness, { path: '/responses', body: { model: 'acme/down', input: 'Hello', stream: true } });
    expect(reply.status).toBe(502);
    expect(reply.headers.get('x-generation-id')).toMatch(/^gen-/);
    const { error } = reply.json as { error: Record<string, unknown> & { metadata: Record<string, unknown> } };
    expect(error.type).toBe('invalid_request_error');
    expect(error.code).toBeNull();
    expect(String(error.message)).toBeTruthy();
    expect(error.metadata.error_type).toBe('provider_error');
    expect(error.metadata.provider_message).toBe('simulated failure 500');
  });

  it('a refusal of a streamed request by routing uses the same body', async () => {
    const reply = await send(harness, { path: '/responses', body: { model: 'acme/nowhere', input: 'Hello', stream: true } });
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({ error: { type: 'invalid_request_error', code: null, metadata: { error_type: 'not_found' } } });
  });
});

describe('commitment and keep-alives', () => {
  it('a slow first token is preceded by a keep-alive comment and the stream completes', async () => {
    const { text, events } = await rawEvents({ model: 'acme/slow', input: 'Hello' });
    const lines = readSse(text).lines;
    expect(lines[0]?.startsWith(':')).toBe(true);
    expect(events.at(-1)?.name).toBe('response.completed');
  });

  it('after one keep-alive period the stream is committed: a later failure is in-band, opened by created', async () => {
    const { status, events } = await rawEvents({ model: 'acme/slow-down', input: 'Hello' });
    expect(status).toBe(200);
    expect(events.map((event) => event.name)).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed']);
    expect(events.map((event) => event.data.sequence_number)).toEqual([0, 1, 2, 3]);
  });
});
