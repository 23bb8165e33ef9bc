import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CheckOutcome } from '../../src/prober/prober.js';
import { accountMoney, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

/**
 * Capability checks over real HTTP: one model served by two endpoints, one of which declares a
 * promise and breaks it; after a probe run, requests needing the promise route away from it, and
 * after the simulator behind it is fixed and probed again they come back.
 */
const TOOLS = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
const CHAT = ['max_tokens', 'tools', 'tool_choice', 'reasoning'];
const CHEAP = { prompt: '0.0000001', completion: '0.0000001' };
const PICTURE = [{ role: 'user', content: [{ type: 'text', text: 'What is it?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }];

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      {
        id: 'acme/tools',
        endpoints: [
          // cheaper, so the default choice: declares tools, answers prose
          { provider: 'sim-a', upstream_model: 'chat;prose', supported_parameters: CHAT, pricing: CHEAP },
          { provider: 'sim-b', upstream_model: 'chat;tools', supported_parameters: CHAT },
        ],
      },
      { id: 'acme/lonely', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;prose;tokens=3', supported_parameters: CHAT }] },
      {
        id: 'acme/think',
        endpoints: [
          // reasons even when asked for none
          { provider: 'sim-a', upstream_model: 'chat;reasoning=4;reasoning_on_none', supported_parameters: CHAT, reasoning: { supported_efforts: ['high', 'none'] }, pricing: CHEAP },
          { provider: 'sim-b', upstream_model: 'chat;reasoning=4', supported_parameters: CHAT, reasoning: { supported_efforts: ['high', 'none'] } },
        ],
      },
      {
        id: 'acme/see',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'chat;refuse_input=image', input_modalities: ['text', 'image'], pricing: CHEAP },
          { provider: 'sim-b', upstream_model: 'chat', input_modalities: ['text', 'image'] },
        ],
      },
    ],
  });
});

afterAll(async () => harness.close());

beforeEach(() => harness.sim.clearRequests());

async function servedBy(body: Record<string, unknown>): Promise<string | null> {
  const reply = await send(harness, { path: '/chat/completions', body: { messages: [{ role: 'user', content: 'Weather in Paris?' }], ...body } });
  expect(reply.status, reply.text).toBe(200);
  return reply.headers.get('x-provider-name');
}

function outcomeOf(outcomes: CheckOutcome[], endpointId: string, capability: string): CheckOutcome | undefined {
  return outcomes.find((outcome) => outcome.endpointId === endpointId && outcome.capability === capability);
}

describe('a declared promise broken, caught by a check, withheld, and given back once a check passes', () => {
  it('before any check the cheaper endpoint gets tool requests, and answers them with prose', async () => {
    expect(await servedBy({ model: 'acme/tools', tools: TOOLS })).toBe('Sim A');
  });

  it('a probe run fails its tools check and passes the other endpoint\'s, saying what it saw', async () => {
    const outcomes = await harness.gateway.checks.runAll();
    expect(outcomeOf(outcomes, 'sim-a/acme/tools', 'tools')?.verdict).toMatchObject({ passed: false, detail: expect.stringContaining('without the tool call') });
    expect(outcomeOf(outcomes, 'sim-b/acme/tools', 'tools')?.verdict).toMatchObject({ passed: true, detail: 'called probe_lookup with JSON arguments' });
  });

  it('tool requests then route away from it; requests without tools still reach it', async () => {
    expect(await servedBy({ model: 'acme/tools', tools: TOOLS })).toBe('Sim B');
    expect(await servedBy({ model: 'acme/tools' })).toBe('Sim A');
  });

  it('where it is the only endpoint, the 503 no_route names the failed check', async () => {
    const reply = await send(harness, { path: '/chat/completions', body: { model: 'acme/lonely', tools: TOOLS, messages: [{ role: 'user', content: 'Hi' }] } });
    expect(reply.status).toBe(503);
    const { error } = reply.json as ErrorEnvelope;
    expect(error.metadata.error_type).toBe('no_route');
    expect(error.message).toContain('tools withheld: its latest check failed (');
    expect(harness.sim.requests()).toHaveLength(0);
  });

  it('effort none that reasons anyway, and an image refused, are withheld the same way', async () => {
    expect(await servedBy({ model: 'acme/think', reasoning: { effort: 'none' } })).toBe('Sim B');
    expect(await servedBy({ model: 'acme/think', reasoning: { effort: 'high' } })).toBe('Sim A');
    expect(await servedBy({ model: 'acme/see', messages: PICTURE })).toBe('Sim B');
  });

  it('once the provider fixes what it serves and a check passes, the requests come back', async () => {
    harness.sim.alias('chat;prose', 'chat');
    harness.sim.alias('chat;reasoning=4;reasoning_on_none', 'chat;reasoning=4');
    harness.sim.alias('chat;refuse_input=image', 'chat');
    try {
      const outcomes = await harness.gateway.checks.runAll();
      expect(outcomeOf(outcomes, 'sim-a/acme/tools', 'tools')?.verdict?.passed).toBe(true);
      expect(await servedBy({ model: 'acme/tools', tools: TOOLS })).toBe('Sim A');
      expect(await servedBy({ model: 'acme/think', reasoning: { effort: 'none' } })).toBe('Sim A');
      expect(await servedBy({ model: 'acme/see', messages: PICTURE })).toBe('Sim A');
    } finally {
      harness.sim.alias('chat;prose', undefined);
      harness.sim.alias('chat;reasoning=4;reasoning_on_none', undefined);
      harness.sim.alias('chat;refuse_input=image', undefined);
    }
  });
});

describe('probes are the operator\'s cost', () => {
  it('no account is held or charged; each probe is recorded once under the operator, priced', async () => {
    const before = await accountMoney(harness);
    const outcomes = await harness.gateway.checks.runAll();
    expect(await accountMoney(harness)).toEqual(before);
    const records = await harness.gateway.store.db.selectFrom('generations').select(['account_id', 'key_id', 'cost_units', 'status'])
      .where('account_id', '=', 'operator').execute();
    expect(records.length).toBeGreaterThanOrEqual(outcomes.length);
    expect(records.every((record) => record.key_id === 'probe')).toBe(true);
    expect(records.some((record) => record.status === 'success' && BigInt(record.cost_units) > 0n)).toBe(true);
  });
});
