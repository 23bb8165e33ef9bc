import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { servingRevision } from '../../src/catalogue/serving-revision.js';
import { accountMoney, send, startHarness, type ErrorEnvelope, type Harness, type RawReply } from './harness.js';

/** Tool-call contracts and call-ready dispatch over real HTTP. */
const TOOLS = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { query: { type: 'string' } } } } }];
const DISPATCH = { include_tool_dispatch: true };

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      {
        id: 'acme/contract',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'chat;tools;prose', pricing: { prompt: '0.0000001', completion: '0.0000001' } },
          { provider: 'sim-b', upstream_model: 'chat;tools' },
        ],
      },
      { id: 'acme/slow', endpoints: [{ provider: 'sim-c', upstream_model: 'chat;tokens=200;tps=40' }] },
      { id: 'acme/prose', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tools;prose' }, { provider: 'sim-b', upstream_model: 'chat;prose' }] },
      {
        id: 'acme/dispatch',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'chat;tools;dispatch', tool_call_dispatch: true, pricing: { prompt: '0.0000001', completion: '0.0000001' } },
          { provider: 'sim-b', upstream_model: 'chat;tools;dispatch', tool_call_dispatch: true },
          { provider: 'sim-c', upstream_model: 'chat;tools;dispatch' },
        ],
      },
    ],
  });
});

afterAll(async () => harness.close());

beforeEach(() => harness.sim.clearRequests());

interface SseFrame {
  event: string;
  data: string;
}

function frames(text: string): SseFrame[] {
  return text.split(/\r?\n\r?\n/).flatMap((block) => {
    const lines = block.split(/\r?\n/).filter((line) => line !== '' && !line.startsWith(':'));
    if (lines.length === 0) return [];
    const event = lines.find((line) => line.startsWith('event:'))?.slice(6).trim() ?? 'message';
    const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\n');
    return [{ event, data }];
  });
}

function chat(body: Record<string, unknown>): Promise<RawReply> {
  return send(harness, { path: '/chat/completions', body: { tools: TOOLS, messages: [{ role: 'user', content: 'Weather in Paris today' }], ...body } });
}

function servedBy(): string[] {
  return harness.sim.requests().map((request) => String((request.body as { model: string }).model));
}

function dispatchFrames(reply: RawReply): Array<{ choice_index: number; tool_call: { index: number; id: string; function: { name: string; arguments: string } } }> {
  return frames(reply.text).filter((frame) => frame.event === 'tool_call_dispatch').map((frame) => JSON.parse(frame.data));
}

describe('rule 6: tool_choice required or a named function is a contract', () => {
  it.each([false, true])('an endpoint answering with prose fails the attempt and the next endpoint serves (stream %s)', async (stream) => {
    const reply = await chat({ model: 'acme/contract', tool_choice: 'required', stream });
    expect(reply.status, reply.text).toBe(200);
    expect(servedBy()).toEqual(['chat;tools;prose', 'chat;tools']);
    expect(reply.text).toContain('get_weather');
    expect(reply.headers.get('x-provider-name')).toBe('Sim B');
  });

  it('a named function is the same contract', async () => {
    const reply = await chat({ model: 'acme/contract', tool_choice: { type: 'function', function: { name: 'get_weather' } } });
    expect(reply.status).toBe(200);
    expect(servedBy()).toHaveLength(2);
  });

  it.each([false, true])('when no endpoint yields a tool call the answer is 502 naming the contract (stream %s)', async (stream) => {
    const reply = await chat({ model: 'acme/prose', tool_choice: 'required', stream });
    expect(reply.status).toBe(502);
    const error = (reply.json as ErrorEnvelope).error;
    expect(error.code).toBe(502);
    expect(error.message).toMatch(/tool_choice/);
    expect(servedBy()).toHaveLength(2);
  });

  it('with auto nothing is enforced: prose is the answer', async () => {
    const reply = await chat({ model: 'acme/prose', tool_choice: 'auto' });
    expect(reply.status).toBe(200);
    expect(servedBy()).toHaveLength(1);
    expect((reply.json as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content).toBeTruthy();
  });
});

describe('call-ready tool dispatch', () => {
  /** A dispatch check of `endpointId`, recorded now as the prober records one. */
  const checked = (endpointId: string, passed: boolean) => {
    const endpoint = harness.gateway.services.catalogue.current().endpoints.get(endpointId);
    if (!endpoint) throw new Error(`no endpoint ${endpointId}`);
    const { verdicts } = harness.gateway.services.state;
    verdicts.record({
      endpointId, capability: 'tool_call_dispatch', passed, at: Date.now(),
      revision: servingRevision(endpoint), probeVersion: verdicts.probeVersion, detail: passed ? 'dispatched' : 'no dispatch event',
    });
  };

  it('only endpoints with a current positive tool_call_dispatch check are eligible; without one the answer is 503', async () => {
    const reply = await chat({ model: 'acme/dispatch', stream: true, stream_options: DISPATCH });
    expect(reply.status).toBe(503);
    const rejections = (reply.json as ErrorEnvelope).error.metadata.rejections as Array<{ endpoint: string; reason: string }>;
    expect(rejections.map((rejection) => rejection.reason)).toEqual([
      'tool_call_dispatch has no current positive check',
      'tool_call_dispatch has no current positive check',
      'does not declare tool_call_dispatch',
    ]);
    expect(servedBy()).toEqual([]);
  });

  describe('with a passing check on sim-a and sim-b', () => {
    beforeAll(() => {
      checked('sim-a/acme/dispatch', true);
      checked('sim-b/acme/dispatch', true);
    });

    it('sends event: tool_call_dispatch with the whole call beside the ordinary fragments', async () => {
      const reply = await chat({ model: 'acme/dispatch', stream: true, stream_options: DISPATCH });
      expect(reply.status).toBe(200);
      const dispatched = dispatchFrames(reply);
      expect(dispatched).toHaveLength(1);
      const call = dispatched[0]?.tool_call;
      expect(dispatched[0]?.choice_index).toBe(0);
      expect(call).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather' } });
      expect(JSON.parse(call?.function.arguments ?? '')).toEqual({ query: 'Weather in Paris' });
      const fragments = frames(reply.text)
        .filter((frame) => frame.event === 'message' && frame.data !== '[DONE]')
        .flatMap((frame) => (JSON.parse(frame.data) as { choices: Array<{ delta: { tool_calls?: Array<{ id?: string; function: { arguments?: string } }> } }> }).choices[0]?.delta.tool_calls ?? []);
      expect(fragments[0]?.id).toBe(call?.id);
      expect(fragments.map((fragment) => fragment.function.arguments ?? '').join('')).toBe(call?.function.arguments);
    });

    it('a duplicate for the same call is suppressed', async () => {
      const reply = await chat({ model: 'acme/dispatch', stream: true, stream_options: DISPATCH, messages: [{ role: 'user', content: 'Weather in Paris today [[sim dispatch_twice]]' }] });
      expect(dispatchFrames(reply)).toHaveLength(1);
    });

    it('malformed and over-64-KiB payloads are ignored; the good one still arrives', async () => {
      const reply = await chat({
        model: 'acme/dispatch', stream: true, stream_options: DISPATCH,
        messages: [{ role: 'user', content: 'Weather in Paris today [[sim dispatch_malformed dispatch_big]]' }],
      });
      expect(reply.status).toBe(200);
      const dispatched = dispatchFrames(reply);
      expect(dispatched).toHaveLength(1);
      expect(JSON.parse(dispatched[0]?.tool_call.function.arguments ?? '')).toEqual({ query: 'Weather in Paris' });
    });

    it('a failure after dispatch ends the stream in-band, without replaying on another endpoint', async () => {
      const reply = await chat({
        model: 'acme/dispatch', stream: true, stream_options: DISPATCH,
        messages: [{ role: 'user', content: 'Weather in Paris today [[sim fail_after_dispatch]]' }],
      });
      expect(reply.status).toBe(200);
      expect(dispatchFrames(reply)).toHaveLength(1);
      const data = frames(reply.text).filter((frame) => frame.event === 'message').map((frame) => frame.data);
      expect(data.at(-1)).toBe('[DONE]');
      const last = JSON.parse(data.at(-2) ?? '{}') as { error?: unknown; choices: Array<{ finish_reason: string }> };
      expect(last.error).toBeDefined();
      expect(last.choices[0]?.finish_reason).toBe('error');
      expect(servedBy()).toHaveLength(1);
    });

    it('a caller who did not opt in sees no dispatch events', async () => {
      const reply = await chat({ model: 'acme/dispatch', stream: true });
      expect(reply.status).toBe(200);
      expect(dispatchFrames(reply)).toHaveLength(0);
      expect(reply.text).toContain('get_weather');
    });

    it('a latest check that failed withdraws eligibility', async () => {
      checked('sim-a/acme/dispatch', false);
      const reply = await chat({ model: 'acme/dispatch', stream: true, stream_options: DISPATCH });
      expect(reply.status).toBe(200);
      expect(harness.sim.requests()).toHaveLength(1);
      expect(reply.headers.get('x-provider-name')).toBe('Sim B');
    });
  });
});

/** Opens a stream on its own connection, reads until the first content, then drops the connection. */
function readThenLeave(body: string): Promise<{ id: string; received: string }> {
  const url = new URL(`${harness.baseUrl}/chat/completions`);
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
    }, (response) => {
      let received = '';
      response.setEncoding('utf8');
      response.on('data', (text: string) => {
        received += text;
        if (!received.includes('"content"')) return;
        request.destroy();
        resolve({ id: String(response.headers['x-generation-id'] ?? ''), received });
      });
    });
    request.on('error', (error) => {
      if (!request.destroyed) reject(error);
    });
    request.end(body);
  });
}

describe('a caller that leaves mid-stream', () => {
  it('the generation is recorded as cancelled, billed for what was produced, and the hold is released', async () => {
    const before = await accountMoney(harness);
    const { id } = await readThenLeave(JSON.stringify({ model: 'acme/slow', stream: true, messages: [{ role: 'user', content: 'Tell me a long story' }] }));
    let record: Record<string, unknown> | undefined;
    for (let poll = 0; poll < 200 && record === undefined; poll += 1) {
      const reply = await send(harness, { path: `/generation?id=${id}` });
      const data = reply.status === 200 ? (reply.json as { data: Record<string, unknown> }).data : undefined;
      if (data && data.status !== 'pending') record = data;
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(record?.status).toBe('cancelled');
    expect(Number(record?.tokens_completion)).toBeLessThan(200);
    const after = await accountMoney(harness);
    expect(after.reserved).toBe(before.reserved);
    expect(before.balance - after.balance).toBeGreaterThan(0n);
  });
});
