import { encode } from 'gpt-tokenizer';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, RunningSimulator } from '../../../src/sim/server.js';
import { startSimulator } from '../../../src/sim/server.js';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});

afterAll(async () => {
  await sim.close();
});

beforeEach(() => {
  sim.clearRequests();
});

interface ErrorReply {
  error: { message: string; type: string; param: string | null; code: string | number | null };
}

interface RecordedChat {
  n?: number;
  messages: Array<{ content: string }>;
}

function chat(body: unknown, raw?: string): Promise<Response> {
  return fetch(`${sim.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer upstream-key' },
    body: raw ?? JSON.stringify(body),
  });
}

function userMessage(content: string): Array<{ role: string; content: string }> {
  return [{ role: 'user', content }];
}

/** The data of every SSE frame, in order. */
function frames(text: string): string[] {
  return text.split('\n\n').filter((f) => f.startsWith('data: ')).map((f) => f.slice('data: '.length));
}

function isJson(data: string): boolean {
  try {
    JSON.parse(data);
    return true;
  } catch {
    return false;
  }
}

/** The chat.completion.chunk frames (not [DONE], error frames or unparsable data). */
function chunks(text: string): ChatCompletionChunk[] {
  return frames(text)
    .filter((d) => d !== '[DONE]' && isJson(d))
    .map((d) => JSON.parse(d) as ChatCompletionChunk)
    .filter((c) => Array.isArray(c.choices));
}

function contentOf(list: ChatCompletionChunk[]): string[] {
  return list.map((c) => c.choices[0]?.delta.content).filter((c): c is string => typeof c === 'string' && c !== '');
}

async function completion(body: unknown): Promise<ChatCompletion> {
  return (await (await chat(body)).json()) as ChatCompletion;
}

function choiceOf(body: ChatCompletion): ChatCompletion.Choice {
  const choice = body.choices[0];
  if (!choice) throw new Error('reply has no choice');
  return choice;
}

/** Reads a body until it ends or breaks; reports what arrived and whether it broke. */
async function readUntilBroken(res: Response): Promise<{ text: string; broken: boolean }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, broken: false };
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return { text, broken: true };
  }
}

describe('non-streamed chat completions', () => {
  it('replies in the chat.completion shape with the requested model name and 12 tokens by default', async () => {
    const res = await chat({ model: 'chat;ttft=0', messages: userMessage('Hi there') });
    expect(res.status).toBe(200);
    const body = (await res.json()) as ChatCompletion;
    expect(body).toMatchObject({ object: 'chat.completion', model: 'chat;ttft=0' });
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(choiceOf(body).message.role).toBe('assistant');
    expect(choiceOf(body).message.content).toBe('Hello from the provider simulator, one deterministic token at a time');
    expect(choiceOf(body).finish_reason).toBe('stop');
    expect(body.usage?.completion_tokens).toBe(12);
  });

  it('counts prompt tokens as the tokens of all message text plus 3 per message', async () => {
    const parts = [{ type: 'text', text: 'What is ' }, { type: 'image_url', image_url: { url: 'x' } }, { type: 'text', text: 'the time?' }];
    const body = await completion({ model: 'chat', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: parts }] });
    const expected = encode('Be brief.What is the time?').length + 6;
    expect(body.usage).toEqual({ prompt_tokens: expected, completion_tokens: 12, total_tokens: expected + 12 });
  });

  it('caps the completion at max_tokens and reports finish_reason length', async () => {
    const body = await completion({ model: 'chat;tokens=30', max_tokens: 4, messages: userMessage('x') });
    expect(choiceOf(body).message.content).toBe('Hello from the provider');
    expect(choiceOf(body).finish_reason).toBe('length');
    expect(body.usage?.completion_tokens).toBe(4);
  });

  it('max_completion_tokens caps like max_tokens', async () => {
    const body = await completion({ model: 'chat', max_completion_tokens: 1, messages: userMessage('x') });
    expect(choiceOf(body).message.content).toBe('Hello');
    expect(choiceOf(body).finish_reason).toBe('length');
  });

  it('no_usage leaves usage out of the body', async () => {
    expect(await completion({ model: 'chat;no_usage', messages: userMessage('x') })).not.toHaveProperty('usage');
  });

  it('echo replies with the JSON of the request body as one completion token', async () => {
    const request = { model: 'chat;echo', temperature: 0.5, messages: userMessage('x') };
    const body = await completion(request);
    expect(JSON.parse(choiceOf(body).message.content ?? '')).toEqual(request);
    expect(body.usage?.completion_tokens).toBe(1);
  });

  it('a [[sim]] directive in the last user message overrides the model keys', async () => {
    const body = await completion({ model: 'chat;tokens=9', messages: userMessage('go [[sim tokens=2]]') });
    expect(choiceOf(body).message.content).toBe('Hello from');
  });
});

describe('streamed chat completions', () => {
  it('streams a role chunk, one token per chunk, a finish chunk and [DONE], without usage unless asked', async () => {
    const res = await chat({ model: 'chat;tokens=3', stream: true, messages: userMessage('x') });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    const list = chunks(text);
    expect(list[0]?.choices[0]?.delta).toMatchObject({ role: 'assistant' });
    expect(list.every((c) => c.object === 'chat.completion.chunk' && c.model === 'chat;tokens=3')).toBe(true);
    expect(contentOf(list)).toEqual(['Hello', ' from', ' the']);
    expect(list.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(list.some((c) => c.usage)).toBe(false);
    expect(frames(text).at(-1)).toBe('[DONE]');
  });

  it('sends a usage chunk with empty choices when stream_options.include_usage is true', async () => {
    const res = await chat({ model: 'chat;tokens=2', stream: true, stream_options: { include_usage: true }, messages: userMessage('x') });
    const last = chunks(await res.text()).at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage?.completion_tokens).toBe(2);
    expect(last?.usage?.total_tokens).toBe((last?.usage?.prompt_tokens ?? 0) + 2);
  });

  it('no_usage sends no usage chunk even when include_usage is asked', async () => {
    const res = await chat({ model: 'chat;no_usage', stream: true, stream_options: { include_usage: true }, messages: userMessage('x') });
    expect(chunks(await res.text()).some((c) => c.usage)).toBe(false);
  });

  it('fail_after=N sends N content chunks then an error frame and ends without [DONE]', async () => {
    const res = await chat({ model: 'chat;fail_after=2', stream: true, messages: userMessage('x') });
    const text = await res.text();
    const data = frames(text);
    expect(contentOf(chunks(text))).toEqual(['Hello', ' from']);
    expect(JSON.parse(data.at(-1) ?? '')).toEqual({ error: { message: 'simulated mid-stream failure', code: 500 } });
    expect(data).not.toContain('[DONE]');
  });

  it('disconnect_after=N drops the connection after N content chunks with no finish or [DONE]', async () => {
    const res = await chat({ model: 'chat;disconnect_after=3', stream: true, messages: userMessage('x') });
    const { text, broken } = await readUntilBroken(res);
    expect(broken).toBe(true);
    const list = chunks(text);
    expect(contentOf(list)).toEqual(['Hello', ' from', ' the']);
    expect(list.some((c) => c.choices[0]?.finish_reason)).toBe(false);
    expect(text).not.toContain('[DONE]');
  });

  it('disconnect_after=0 drops the connection before any chunk', async () => {
    const res = await chat({ model: 'chat;disconnect_after=0', stream: true, messages: userMessage('x') });
    expect(await readUntilBroken(res)).toEqual({ text: '', broken: true });
  });

  it('malformed sends one frame whose data is not JSON', async () => {
    const res = await chat({ model: 'chat;tokens=3;malformed', stream: true, messages: userMessage('x') });
    const data = frames(await res.text());
    expect(data.filter((d) => d !== '[DONE]' && !isJson(d))).toHaveLength(1);
  });

  it('tps paces the tokens and ttft delays the first one', async () => {
    const started = performance.now();
    const res = await chat({ model: 'chat;tokens=6;tps=50;ttft=60', stream: true, messages: userMessage('x') });
    const text = await res.text();
    const elapsed = performance.now() - started;
    expect(contentOf(chunks(text))).toHaveLength(6);
    expect(elapsed).toBeGreaterThanOrEqual(60 + 5 * 20 - 10);
  });
});

describe('tool calls', () => {
  const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }];

  function firstCall(body: ChatCompletion): { name: string; arguments: string } {
    const call = choiceOf(body).message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('reply has no function call');
    return call.function;
  }

  it('tools answers with one call to the first declared tool and finish_reason tool_calls', async () => {
    const body = await completion({ model: 'chat;tools', tools, messages: userMessage('Weather in Paris today please') });
    expect(firstCall(body).name).toBe('get_weather');
    expect(JSON.parse(firstCall(body).arguments)).toEqual({ query: 'Weather in Paris' });
    expect(choiceOf(body).message.content).toBeNull();
    expect(choiceOf(body).finish_reason).toBe('tool_calls');
  });

  it('tools calls a tool named lookup when the request declares none', async () => {
    const body = await completion({ model: 'chat', messages: userMessage('find it [[sim tools]]') });
    expect(firstCall(body)).toEqual({ name: 'lookup', arguments: '{"query":"find it"}' });
  });

  it('a streamed tool call opens with id, type and name, then sends the arguments in several fragments', async () => {
    const res = await chat({ model: 'chat;tools', stream: true, tools, messages: userMessage('Weather in Paris today') });
    const list = chunks(await res.text());
    const opening = list[0]?.choices[0]?.delta;
    expect(opening?.role).toBe('assistant');
    expect(opening?.tool_calls?.[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather', arguments: '' } });
    expect(opening?.tool_calls?.[0]?.id).toMatch(/^call_/);
    const fragments = list.slice(1).flatMap((c) => c.choices[0]?.delta.tool_calls ?? []).map((t) => t.function?.arguments ?? '');
    expect(fragments.length).toBeGreaterThan(2);
    expect(JSON.parse(fragments.join(''))).toEqual({ query: 'Weather in Paris' });
    expect(list.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('a tool_choice requiring a call (required, a named function) gets the call without the tools key', async () => {
    const required = await completion({ model: 'chat', tools, tool_choice: 'required', messages: userMessage('Weather in Paris today') });
    expect(firstCall(required).name).toBe('get_weather');
    expect(choiceOf(required).finish_reason).toBe('tool_calls');
    const named = await completion({ model: 'chat', tools, tool_choice: { type: 'function', function: { name: 'get_weather' } }, messages: userMessage('x') });
    expect(firstCall(named).name).toBe('get_weather');
    const auto = await completion({ model: 'chat', tools, tool_choice: 'auto', messages: userMessage('x') });
    expect(choiceOf(auto).message.tool_calls).toBeUndefined();
    const disobeying = await completion({ model: 'chat;prose', tools, tool_choice: 'required', messages: userMessage('x') });
    expect(choiceOf(disobeying).message.tool_calls).toBeUndefined();
  });

  const twoTools = [...tools, { type: 'function', function: { name: 'get_time', parameters: { type: 'object' } } }];

  it('tool_calls=N answers with N calls to the declared tools in turn, each naming its place', async () => {
    const body = await completion({ model: 'chat;tool_calls=3', tools: twoTools, messages: userMessage('Weather in Paris today') });
    const calls = choiceOf(body).message.tool_calls ?? [];
    expect(calls.map((call) => (call.type === 'function' ? [call.id, call.function.name, JSON.parse(call.function.arguments)] : []))).toEqual([
      [expect.stringMatching(/^call_sim\d+$/), 'get_weather', { query: 'Weather in Paris', call: 1 }],
      [expect.stringMatching(/^call_sim\d+_1$/), 'get_time', { query: 'Weather in Paris', call: 2 }],
      [expect.stringMatching(/^call_sim\d+_2$/), 'get_weather', { query: 'Weather in Paris', call: 3 }],
    ]);
    expect(choiceOf(body).finish_reason).toBe('tool_calls');
  });

  /** Each streamed tool-call entry as `index:header` or `index:fragment`, in order, and each call's joined arguments. */
  function streamedCalls(list: ChatCompletionChunk[]): { order: string[]; args: string[] } {
    const order: string[] = [];
    const args: string[] = [];
    for (const entry of list.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])) {
      order.push(`${entry.index}:${entry.id === undefined ? 'fragment' : 'header'}`);
      args[entry.index] = (args[entry.index] ?? '') + (entry.function?.arguments ?? '');
    }
    return { order, args };
  }

  it('streamed parallel calls go one after the other; interleave sends both headers first, then the fragments in turn', async () => {
    const ask = (model: string) => chat({ model, stream: true, tools: twoTools, messages: userMessage('Weather in Paris today') });
    const sequential = streamedCalls(chunks(await (await ask('chat;tool_calls=2')).text()));
    const interleaved = streamedCalls(chunks(await (await ask('chat;tool_calls=2;interleave')).text()));
    expect(sequential.order.indexOf('1:header')).toBe(sequential.order.lastIndexOf('0:fragment') + 1);
    expect(interleaved.order.slice(0, 4)).toEqual(['0:header', '1:header', '0:fragment', '1:fragment']);
    for (const { args } of [sequential, interleaved]) {
      expect(args.map((text) => JSON.parse(text) as unknown)).toEqual([{ query: 'Weather in Paris', call: 1 }, { query: 'Weather in Paris', call: 2 }]);
    }
  });

  it('tool_calls needs a count from 1 to 16', async () => {
    for (const value of ['0', '17', 'x']) {
      const res = await chat({ model: `chat;tool_calls=${value}`, messages: userMessage('x') });
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorReply).error.message).toContain('tool_calls needs a count from 1 to 16');
    }
  });

  it('prose answers with text even when tools are sent', async () => {
    const body = await completion({ model: 'chat;tools;prose', tools, messages: userMessage('x') });
    expect(choiceOf(body).message.tool_calls).toBeUndefined();
    expect(choiceOf(body).finish_reason).toBe('stop');
  });
});

describe('failures before the answer', () => {
  it('error=STATUS answers that status with an OpenAI error body and retry_after sets Retry-After', async () => {
    const res = await chat({ model: 'chat;error=429;retry_after=7', messages: userMessage('x') });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    const body = (await res.json()) as ErrorReply;
    expect(body.error.message).toBe('simulated failure 429');
    expect(typeof body.error.type).toBe('string');
  });

  it('error=STATUS applies to streams before any byte of answer', async () => {
    const res = await chat({ model: 'chat;error=503', stream: true, messages: userMessage('x') });
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('refuse_param=NAME answers 400 naming NAME when the body has it, and replies normally otherwise', async () => {
    const refused = await chat({ model: 'chat;refuse_param=top_k', top_k: 3, messages: userMessage('x') });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as ErrorReply;
    expect(body.error.param).toBe('top_k');
    expect(body.error.message).toContain('top_k');
    expect((await chat({ model: 'chat;refuse_param=top_k', messages: userMessage('x') })).status).toBe(200);
  });

  it('a body that is not JSON gets a 400 OpenAI error', async () => {
    const res = await chat(undefined, '{"model": ');
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorReply).error.type).toBe('invalid_request_error');
  });

  it('an unknown behaviour key is refused with 400 naming it', async () => {
    const res = await chat({ model: 'chat;tsp=5', messages: userMessage('x') });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorReply).error.message).toContain('tsp');
  });

  it('an unknown route answers 404', async () => {
    expect((await fetch(`${sim.url}/v1/nothing-here`)).status).toBe(404);
  });
});

describe('models and recorded requests', () => {
  it('GET /v1/models lists models', async () => {
    const body = (await (await fetch(`${sim.url}/v1/models`)).json()) as { object: string; data: Array<{ object: string }> };
    expect(body.object).toBe('list');
    expect(body.data[0]?.object).toBe('model');
  });

  it('records path, headers and body of each request, newest last, over HTTP and in process', async () => {
    await chat({ model: 'chat', messages: userMessage('first') });
    await chat({ model: 'chat', messages: userMessage('second') });
    const recorded = (await (await fetch(`${sim.url}/_sim/requests`)).json()) as RecordedRequest[];
    expect(recorded.map((r) => (r.body as RecordedChat).messages[0]?.content)).toEqual(['first', 'second']);
    expect(recorded[0]).toMatchObject({ path: '/v1/chat/completions', headers: { authorization: 'Bearer upstream-key' } });
    expect(typeof recorded[0]?.receivedAt).toBe('number');
    expect(sim.requests()).toEqual(recorded);
  });

  it('DELETE /_sim/requests clears the record', async () => {
    await chat({ model: 'chat', messages: userMessage('x') });
    expect((await fetch(`${sim.url}/_sim/requests`, { method: 'DELETE' })).status).toBe(204);
    expect(sim.requests()).toEqual([]);
  });

  it('keeps only the last 200 requests', async () => {
    for (let i = 0; i < 205; i += 1) await chat({ model: 'chat;tokens=0', n: i, messages: userMessage('x') });
    const recorded = sim.requests();
    expect(recorded).toHaveLength(200);
    expect((recorded[0]?.body as RecordedChat).n).toBe(5);
    expect((recorded.at(-1)?.body as RecordedChat).n).toBe(204);
  });
});
