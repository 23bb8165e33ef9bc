import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd, parseUsd } from '../../src/billing/money.js';
import { accountMoney, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

const DECLARES_LOGPROBS = ['max_tokens', 'temperature', 'logprobs', 'top_logprobs'];

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      {
        id: 'acme/judge',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'judge-a', supported_parameters: DECLARES_LOGPROBS, pricing: { prompt: '0.000001', completion: '0.000002' } },
          { provider: 'sim-b', upstream_model: 'judge-b', supported_parameters: ['max_tokens'] },
        ],
      },
      {
        id: 'acme/windows',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'small', context_length: 300, supported_parameters: DECLARES_LOGPROBS },
          { provider: 'sim-c', upstream_model: 'large', context_length: 32768, supported_parameters: DECLARES_LOGPROBS },
        ],
      },
      { id: 'acme/tiny', endpoints: [{ provider: 'sim-a', upstream_model: 'tiny', context_length: 300, supported_parameters: DECLARES_LOGPROBS }] },
      { id: 'acme/labelled', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;labels', supported_parameters: DECLARES_LOGPROBS }] },
      { id: 'acme/down', endpoints: [{ provider: 'sim-a', upstream_model: 'down;error=503', supported_parameters: DECLARES_LOGPROBS }] },
    ],
  });
});

afterAll(async () => harness.close());

interface DecisionReply {
  id: string;
  model: string;
  provider: string;
  answers: Record<string, Record<string, unknown>>;
  usage: { input_tokens?: number; output_tokens?: number; cost: number };
}

function decide(body: Record<string, unknown>) {
  return send(harness, { path: '/systemone', body: { model: 'acme/judge', ...body } });
}

const URGENCY = {
  type: 'choice',
  instructions: 'How urgent is this? [[sim top=B:0.7,A:0.2,C:0.1]]',
  criteria: { low: 'can wait a week', high: 'needs action today', unclear: null },
};

describe('POST /systemone choice answers', () => {
  it('gives choice, probabilities over the options from token log-probabilities, and confidence', async () => {
    harness.sim.clearRequests();
    const reply = await decide({ state: 'Customer: I was charged twice, refund me today.', questions: { urgency: URGENCY } });
    expect(reply.status).toBe(200);
    const body = reply.json as DecisionReply;
    expect(body.id).toBe(reply.headers.get('x-generation-id'));
    expect(body.model).toBe('acme/judge');
    expect(body.provider).toBe('Sim A');
    const answer = body.answers.urgency as { type: string; choice: string; probabilities: Record<string, number>; confidence: number; basis: string };
    expect(answer.type).toBe('choice');
    expect(answer.choice).toBe('high');
    expect(answer.basis).toBe('logprobs');
    expect(answer.probabilities.low).toBeCloseTo(0.2, 9);
    expect(answer.probabilities.high).toBeCloseTo(0.7, 9);
    expect(answer.probabilities.unclear).toBeCloseTo(0.1, 9);
    const entropy = -(0.2 * Math.log(0.2) + 0.7 * Math.log(0.7) + 0.1 * Math.log(0.1));
    expect(answer.confidence).toBeCloseTo(1 - entropy / Math.log(3), 9);
    const upstream = harness.sim.requests()[0]?.body as Record<string, unknown>;
    expect(upstream.logprobs).toBe(true);
    expect(upstream.top_logprobs).toBe(20);
    expect(upstream.temperature).toBe(0);
  });

  it('falls back to the written label, taken as certain, where the endpoint declares no log-probabilities', async () => {
    harness.sim.clearRequests();
    const reply = await decide({
      state: 'Customer: where is my parcel? [[sim answer=A]]',
      questions: { urgency: { ...URGENCY, instructions: 'How urgent is this?' } },
      provider: { only: ['sim-b'] },
    });
    expect(reply.status).toBe(200);
    const body = reply.json as DecisionReply;
    expect(body.provider).toBe('Sim B');
    expect(body.answers.urgency).toEqual({ type: 'choice', choice: 'low', probabilities: { low: 1, high: 0, unclear: 0 }, confidence: 1, basis: 'answer' });
    const upstream = harness.sim.requests()[0]?.body as Record<string, unknown>;
    expect(upstream).not.toHaveProperty('logprobs');
    expect(upstream).not.toHaveProperty('top_logprobs');
  });

  it('a reply naming none of its options fails the whole request with a 502 naming the question, charging nothing', async () => {
    harness.sim.clearRequests();
    const before = await accountMoney(harness);
    const reply = await decide({
      state: 'Anything',
      questions: {
        urgency: URGENCY,
        vague: { type: 'noul', instructions: 'Is it clear? [[sim answer=maybe]]' },
        fuzzy: { type: 'score', instructions: 'How fuzzy? [[sim answer=lots]]', criteria: ['low', 'high'] },
      },
    });
    expect(reply.status).toBe(502);
    const error = (reply.json as ErrorEnvelope).error;
    expect(error.metadata.error_type).toBe('provider_error');
    expect(error.metadata.unanswered).toEqual(['vague', 'fuzzy']);
    expect(error.message).toContain('"vague", "fuzzy"');
    expect(harness.sim.requests()).toHaveLength(3);
    const after = await accountMoney(harness);
    expect(after).toEqual(before);
    const record = await send(harness, { path: `/generation?id=${reply.headers.get('x-generation-id') ?? ''}` });
    const data = (record.json as { data: { status: string; cost_usd: string; provider_name: string } }).data;
    expect(data.status).toBe('error');
    expect(data.cost_usd).toBe('0');
    expect(data.provider_name).toBe('Sim A');
  });

  it('a written label with no scripted alternatives is read from its own log-probability', async () => {
    const reply = await decide({ state: 'Anything [[sim answer=C]]', questions: { urgency: { ...URGENCY, instructions: 'How urgent?' } } });
    expect(reply.status).toBe(200);
    expect((reply.json as DecisionReply).answers.urgency).toMatchObject({ choice: 'unclear', basis: 'logprobs' });
  });
});

describe('POST /systemone score and noul answers', () => {
  it('a score answer is the expected level with legend, probabilities per level and confidence', async () => {
    const reply = await decide({
      state: 'Customer: this is the third time I ask.',
      questions: { frustration: { type: 'score', instructions: 'How frustrated? [[sim top=2:0.5,1:0.5]]', criteria: ['calm', 'annoyed', 'angry'] } },
    });
    expect(reply.status).toBe(200);
    const answer = (reply.json as DecisionReply).answers.frustration as Record<string, unknown>;
    expect(answer.type).toBe('score');
    expect(answer.score).toBeCloseTo(1.5, 9);
    expect(answer.legend).toEqual({ 0: 'calm', 1: 'annoyed', 2: 'angry' });
    const probabilities = answer.probabilities as Record<string, number>;
    expect(Object.keys(probabilities)).toEqual(['0', '1', '2']);
    expect(probabilities['0']).toBe(0);
    expect(probabilities['1']).toBeCloseTo(0.5, 9);
    expect(answer.confidence).toBeCloseTo(1 - Math.log(2) / Math.log(3), 9);
  });

  it('a noul answer is the probability that the statement is true; each question is asked on its own', async () => {
    harness.sim.clearRequests();
    const reply = await decide({
      state: { message: 'Refund my double charge', channel: 'support' },
      questions: {
        is_billing: { type: 'noul', instructions: 'Is this about billing? [[sim top=yes:0.8,no:0.2]]', criteria: { true: 'about a charge or refund' } },
        is_spam: { type: 'noul', instructions: 'Is this spam? [[sim top=no:0.9,yes:0.1]]' },
      },
    });
    expect(reply.status).toBe(200);
    const { answers } = reply.json as DecisionReply;
    expect(answers.is_billing?.noul).toBeCloseTo(0.8, 9);
    expect(answers.is_spam?.noul).toBeCloseTo(0.1, 9);
    expect(answers.is_billing?.type).toBe('noul');
    const sent = harness.sim.requests();
    expect(sent).toHaveLength(2);
    expect(sent.every((request) => JSON.stringify(request.body).includes('\\"channel\\": \\"support\\"'))).toBe(true);
  });
});

describe('POST /systemone against a model that answers with one of the offered labels', () => {
  it('answers every question of every type, each from the log-probabilities over its labels', async () => {
    const reply = await decide({
      model: 'acme/labelled',
      state: { message: 'I was charged twice for order 4411, refund one today.', channel: 'support' },
      questions: {
        is_billing: { type: 'noul', instructions: 'Is this about billing?', criteria: { true: 'a charge, invoice or refund' } },
        urgency: { type: 'choice', instructions: 'How urgent is it?', criteria: { low: 'can wait a week', high: 'needs action today' } },
        frustration: { type: 'score', instructions: 'How frustrated is the customer?', criteria: ['calm', 'annoyed', 'angry'] },
      },
    });
    expect(reply.status).toBe(200);
    const { answers } = reply.json as DecisionReply;
    expect(Object.keys(answers).sort()).toEqual(['frustration', 'is_billing', 'urgency']);
    for (const answer of Object.values(answers)) expect(answer.basis).toBe('logprobs');
    expect(Object.keys(answers.urgency?.probabilities as object)).toEqual(['low', 'high']);
    expect(Object.keys(answers.frustration?.probabilities as object)).toEqual(['0', '1', '2']);
    const noul = answers.is_billing?.noul as number;
    expect(noul > 0 && noul < 1).toBe(true);
  });
});

describe('POST /systemone usage, billing and forwarding', () => {
  it('usage sums every call, cost is exact and recorded, and trace is never forwarded', async () => {
    harness.sim.clearRequests();
    const before = await accountMoney(harness);
    const reply = await decide({
      state: 'State text',
      trace: { run: 'abc' },
      questions: { a: { type: 'noul', instructions: 'One? [[sim top=yes:0.6,no:0.4]]' }, b: { type: 'noul', instructions: 'Two? [[sim top=no:0.7,yes:0.3]]' } },
    });
    expect(reply.status).toBe(200);
    const body = reply.json as DecisionReply;
    const sent = harness.sim.requests();
    expect(sent).toHaveLength(2);
    for (const request of sent) expect(JSON.stringify(request.body)).not.toContain('trace');
    expect(body.usage.input_tokens).toBeGreaterThan(0);
    expect(Object.keys(body.answers)).toEqual(['a', 'b']);
    expect(body.usage.output_tokens).toBe(2); // two calls, one label token each
    const exact = parseUsd('0.000001') * BigInt(body.usage.input_tokens ?? 0) + parseUsd('0.000002') * 2n;
    expect(body.usage.cost).toBe(Number(formatUsd(exact)));
    const after = await accountMoney(harness);
    expect(before.balance - after.balance).toBe(exact);
    expect(after.reserved).toBe(0n);
    const record = await send(harness, { path: `/generation?id=${body.id}` });
    expect((record.json as { data: { cost_usd: string; tokens_prompt: number } }).data.cost_usd).toBe(formatUsd(exact));
  });

  it('a request no endpoint answers is a provider error and charges nothing', async () => {
    const before = await accountMoney(harness);
    const reply = await decide({ model: 'acme/down', state: 'x', questions: { a: { type: 'noul', instructions: 'One?' } } });
    expect(reply.status).toBe(502);
    expect(await accountMoney(harness)).toEqual(before);
  });
});

describe('POST /systemone windows: refused, never truncated', () => {
  const longState = 'word '.repeat(400);

  it('skips an endpoint whose window cannot hold the request and uses one that can', async () => {
    harness.sim.clearRequests();
    const reply = await decide({ model: 'acme/windows', state: longState, questions: { a: { type: 'noul', instructions: 'Long? [[sim answer=yes]]' } } });
    expect(reply.status).toBe(200);
    expect((reply.json as DecisionReply).provider).toBe('Sim C');
    const sent = harness.sim.requests();
    expect(sent.map((request) => (request.body as { model: string }).model)).toEqual(['large']);
    expect(JSON.stringify(sent[0]?.body)).toContain(longState.trim());
  });

  it('refuses a request no endpoint window can hold, contacting no provider', async () => {
    harness.sim.clearRequests();
    const reply = await decide({ model: 'acme/tiny', state: longState, questions: { a: { type: 'noul', instructions: 'Long?' } } });
    expect(reply.status).toBe(503);
    expect((reply.json as ErrorEnvelope).error.message).toMatch(/context window/);
    expect(harness.sim.requests()).toHaveLength(0);
  });
});

describe('POST /systemone validation', () => {
  it.each([
    [{ urgency: { type: 'choice', instructions: 'How urgent?' } }, 'questions.urgency.criteria'],
    [{ urgency: { type: 'choice', instructions: 'How urgent?', criteria: { only: null } } }, 'questions.urgency.criteria'],
    [{ level: { type: 'score', instructions: 'How much?', criteria: ['one'] } }, 'questions.level.criteria'],
    [{ yes: { type: 'noul', instructions: 'Yes?', criteria: { maybe: 'x' } } }, 'questions.yes.criteria.maybe'],
    [{ odd: { type: 'ranking', instructions: 'Rank' } }, 'questions.odd.type'],
  ])('refuses bad questions with 400 naming the field (%#)', async (questions, field) => {
    harness.sim.clearRequests();
    const reply = await decide({ state: 'x', questions });
    expect(reply.status).toBe(400);
    const { error } = reply.json as ErrorEnvelope;
    expect(error.metadata.error_type).toBe('invalid_request');
    expect(error.message.startsWith(field)).toBe(true);
    expect(harness.sim.requests()).toHaveLength(0);
  });

  it('refuses a missing state and an empty questions object', async () => {
    expect((await decide({ questions: { a: { type: 'noul', instructions: 'x' } } })).status).toBe(400);
    expect((await decide({ state: 'x', questions: {} })).status).toBe(400);
  });
});
