import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../src/sim/server.js';
import { messageOf, userMessage, type SimReply } from './sim-session.js';

/** Behaviours that keep or break declared promises, and aliases that switch them on a running simulator. */
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});

afterAll(async () => sim.close());

function post(path: string, body: unknown, method = 'POST'): Promise<Response> {
  return fetch(`${sim.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

const SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer' }, sunny: { type: 'boolean' }, kind: { enum: ['rain', 'sun'] }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['city', 'days'],
};
const STRUCTURED = { messages: userMessage('Forecast'), response_format: { type: 'json_schema', json_schema: { name: 'forecast', schema: SCHEMA } } };

describe('follow_schema', () => {
  it('answers a json_schema response format with JSON matching the schema', async () => {
    const reply = (await (await post('/v1/chat/completions', { model: 'chat;follow_schema', ...STRUCTURED })).json()) as SimReply;
    expect(JSON.parse(messageOf(reply).content ?? '')).toEqual({ city: 'sim', days: 1, sunny: true, kind: 'rain', tags: ['sim'] });
  });

  it('without it the answer is prose, not JSON', async () => {
    const reply = (await (await post('/v1/chat/completions', { model: 'chat', ...STRUCTURED })).json()) as SimReply;
    expect(() => JSON.parse(messageOf(reply).content ?? '')).toThrow();
  });
});

describe('refuse_input=MODALITY', () => {
  const picture = [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }];

  it('answers 400 to a message carrying a part of that modality', async () => {
    const response = await post('/v1/chat/completions', { model: 'chat;refuse_input=image', messages: picture });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { message: 'This model does not accept image input.', param: 'messages', code: 'unsupported_input' } });
  });

  it('takes text, and parts of other modalities', async () => {
    expect((await post('/v1/chat/completions', { model: 'chat;refuse_input=image', messages: userMessage('Hi') })).status).toBe(200);
    expect((await post('/v1/chat/completions', { model: 'chat;refuse_input=audio', messages: picture })).status).toBe(200);
  });
});

describe('aliases: an upstream model answered as another', () => {
  it('PUT /_sim/models/{name} switches the behaviour behind the same name, DELETE switches it back', async () => {
    const toolRequest = {
      model: 'chat;prose',
      messages: userMessage('Weather?'),
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }],
      tool_choice: 'required',
    };
    const answer = async () => messageOf((await (await post('/v1/chat/completions', toolRequest)).json()) as SimReply);
    expect((await answer()).tool_calls).toBeUndefined();
    expect((await post('/_sim/models/chat%3Bprose', { as: 'chat' }, 'PUT')).status).toBe(204);
    expect((await answer()).tool_calls?.[0]?.function.name).toBe('lookup');
    expect(sim.requests().at(-1)?.body).toMatchObject({ model: 'chat;prose' });
    expect((await post('/_sim/models/chat%3Bprose', {}, 'DELETE')).status).toBe(204);
    expect((await answer()).tool_calls).toBeUndefined();
  });

  it('a PUT without "as" is refused naming it', async () => {
    const response = await post('/_sim/models/chat', { like: 'chat;tools' }, 'PUT');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { param: 'as' } });
  });
});
