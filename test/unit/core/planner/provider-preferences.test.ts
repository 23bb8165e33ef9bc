import { beforeAll, describe, expect, test } from 'vitest';
import { LiveEndpointState } from '../../../../src/stats/endpoint-state.js';
import { chatCatalogue, endpoint } from '../../../fixtures/planner/catalogue-yaml.js';
import { degrade, measuredState } from '../../../fixtures/planner/measurements.js';
import { chatRequest, refusalOf, rejectionsOf, routedIds } from '../../../fixtures/planner/planning.js';

const ALPHA = 'alpha/acme/chat';
const BETA = 'beta/acme/chat';
const GAMMA = 'gamma/acme/chat';

const CHEAP = { prompt: '0.0000001', completion: '0.0000002' };
const MIDDLE = { prompt: '0.000001', completion: '0.000002' };
const DEAR = { prompt: '0.000003', completion: '0.000006', request: '0.01' };

/**
 * alpha: fp8, zero-retention, trains on nothing, dearest; beta: bf16, trains on requests, cheapest;
 * gamma: no declared quantization, keeps data 7 days, middle price.
 */
const catalogue = chatCatalogue(
  endpoint('alpha', { quantization: 'fp8', pricing: DEAR }),
  endpoint('beta', { quantization: 'bf16', pricing: CHEAP }),
  endpoint('gamma', { pricing: MIDDLE }),
);

function reasonFor(error: ReturnType<typeof refusalOf>, endpointId: string): string | undefined {
  return rejectionsOf(error).find((rejection) => rejection.endpoint === endpointId)?.reason;
}

describe('provider.only and provider.ignore', () => {
  test('only keeps the listed providers, in the default order', () => {
    expect(routedIds(catalogue, chatRequest({ provider: { only: ['alpha', 'gamma'] } }))).toEqual([GAMMA, ALPHA]);
  });

  test('only accepts a slug/quantization tag', () => {
    expect(routedIds(catalogue, chatRequest({ provider: { only: ['alpha/fp8'] } }))).toEqual([ALPHA]);
    expect(routedIds(catalogue, chatRequest({ provider: { only: ['gamma/unknown'] } }))).toEqual([GAMMA]);
  });

  test('ignore skips the listed providers', () => {
    expect(routedIds(catalogue, chatRequest({ provider: { ignore: ['beta'] } }))).toEqual([GAMMA, ALPHA]);
  });

  test('an only list matching nothing is a 503 itemising every endpoint with the reason', () => {
    const error = refusalOf(catalogue, chatRequest({ provider: { only: ['delta'] } }));
    expect(error.status).toBe(503);
    expect(error.code).toBe('no_route');
    expect(rejectionsOf(error)).toEqual([
      { endpoint: ALPHA, reason: 'provider not in provider.only' },
      { endpoint: BETA, reason: 'provider not in provider.only' },
      { endpoint: GAMMA, reason: 'provider not in provider.only' },
    ]);
  });

  test('ignoring every provider is a 503 naming provider.ignore', () => {
    const error = refusalOf(catalogue, chatRequest({ provider: { ignore: ['alpha', 'beta', 'gamma'] } }));
    expect(reasonFor(error, BETA)).toBe('provider in provider.ignore');
  });
});

describe('provider.order and provider.allow_fallbacks', () => {
  test('listed providers go first in the listed order; the rest follow in the default order', () => {
    expect(routedIds(catalogue, chatRequest({ provider: { order: ['alpha'] } }))).toEqual([ALPHA, BETA, GAMMA]);
    expect(routedIds(catalogue, chatRequest({ provider: { order: ['gamma', 'alpha'] } }))).toEqual([GAMMA, ALPHA, BETA]);
  });

  test('allow_fallbacks false keeps only the providers of the order', () => {
    expect(routedIds(catalogue, chatRequest({ provider: { order: ['gamma', 'alpha'], allowFallbacks: false } }))).toEqual([GAMMA, ALPHA]);
  });

  test('allow_fallbacks false without an order keeps only the first endpoint of the default order', () => {
    expect(routedIds(catalogue, chatRequest({ provider: { allowFallbacks: false } }))).toEqual([BETA]);
  });

  test('an order naming a provider that cannot serve does not bring it back', () => {
    expect(routedIds(catalogue, chatRequest({ provider: { order: ['alpha'], ignore: ['alpha'] } }))).toEqual([BETA, GAMMA]);
  });
});

describe('provider.data_collection and provider.zdr', () => {
  test('data_collection deny skips providers that train on request data', () => {
    const error = refusalOf(catalogue, chatRequest({ provider: { only: ['beta'], dataCollection: 'deny' } }));
    expect(reasonFor(error, BETA)).toMatch(/data_collection/);
    expect(routedIds(catalogue, chatRequest({ provider: { dataCollection: 'deny' } }))).toEqual([GAMMA, ALPHA]);
  });

  test('data_collection allow filters nothing', () => {
    expect(routedIds(catalogue, chatRequest({ provider: { dataCollection: 'allow' } }))).toEqual([BETA, GAMMA, ALPHA]);
  });

  test('zdr true keeps only zero-data-retention providers; false filters nothing', () => {
    expect(routedIds(catalogue, chatRequest({ provider: { zdr: true } }))).toEqual([ALPHA]);
    expect(routedIds(catalogue, chatRequest({ provider: { zdr: false } }))).toEqual([BETA, GAMMA, ALPHA]);
    const error = refusalOf(catalogue, chatRequest({ provider: { zdr: true, ignore: ['alpha'] } }));
    expect(reasonFor(error, GAMMA)).toMatch(/zero-data-retention/);
  });
});

describe('provider.quantizations', () => {
  test('keeps endpoints of the listed quantizations', () => {
    expect(routedIds(catalogue, chatRequest({ provider: { quantizations: ['fp8', 'bf16'] } }))).toEqual([BETA, ALPHA]);
  });

  test('an undeclared quantization is matched as unknown', () => {
    expect(routedIds(catalogue, chatRequest({ provider: { quantizations: ['unknown'] } }))).toEqual([GAMMA]);
  });

  test('an unmatched quantization names the endpoint quantization in its rejection', () => {
    const error = refusalOf(catalogue, chatRequest({ provider: { quantizations: ['int4'] } }));
    expect(reasonFor(error, ALPHA)).toBe('quantization fp8 not in provider.quantizations');
    expect(reasonFor(error, GAMMA)).toBe('quantization unknown not in provider.quantizations');
  });
});

describe('provider.sort', () => {
  let state: LiveEndpointState;
  beforeAll(async () => {
    state = await measuredState({ [ALPHA]: { ttftMs: 100, tokensPerSecond: 30 }, [GAMMA]: { ttftMs: 400, tokensPerSecond: 90 } });
  });

  test('price puts the cheapest endpoint for this request first', () => {
    expect(routedIds(catalogue, chatRequest({ provider: { sort: 'price' } }), { state })).toEqual([BETA, GAMMA, ALPHA]);
  });

  test('throughput puts the highest measured throughput first and unmeasured endpoints last', () => {
    expect(routedIds(catalogue, chatRequest({ provider: { sort: 'throughput' } }), { state })).toEqual([GAMMA, ALPHA, BETA]);
  });

  test('latency puts the lowest measured time to first token first and unmeasured endpoints last', () => {
    expect(routedIds(catalogue, chatRequest({ provider: { sort: 'latency' } }), { state })).toEqual([ALPHA, GAMMA, BETA]);
  });

  test('an endpoint that failed repeatedly goes last even when the sort ranks it first', () => {
    const failing = new LiveEndpointState();
    degrade(failing, BETA);
    expect(routedIds(catalogue, chatRequest({ provider: { sort: 'price' } }), { state: failing })).toEqual([GAMMA, ALPHA, BETA]);
  });

  test('a sort replaces session affinity', async () => {
    const affine = await measuredState({ [ALPHA]: { ttftMs: 100, tokensPerSecond: 30 } });
    affine.sessions.remember('conversation-1', GAMMA);
    expect(routedIds(catalogue, chatRequest({ sessionId: 'conversation-1', provider: { sort: 'latency' } }), { state: affine })[0]).toBe(ALPHA);
  });
});

describe('provider.max_price', () => {
  test('an endpoint whose prompt price per million tokens exceeds the ceiling is skipped', () => {
    // gamma costs exactly 1 USD per million prompt tokens: equal to the ceiling is allowed.
    expect(routedIds(catalogue, chatRequest({ provider: { maxPrice: { prompt: '1' } } }))).toEqual([BETA, GAMMA]);
    expect(routedIds(catalogue, chatRequest({ provider: { maxPrice: { prompt: '0.99' } } }))).toEqual([BETA]);
  });

  test('completion is compared per million tokens and request per request', () => {
    expect(routedIds(catalogue, chatRequest({ provider: { maxPrice: { completion: '2' } } }))).toEqual([BETA, GAMMA]);
    expect(routedIds(catalogue, chatRequest({ provider: { maxPrice: { request: '0.001' } } }))).toEqual([BETA, GAMMA]);
  });

  test('the rejection names the exceeded price', () => {
    const error = refusalOf(catalogue, chatRequest({ provider: { maxPrice: { prompt: '0.01' } } }));
    expect(reasonFor(error, ALPHA)).toBe('prompt price above provider.max_price.prompt');
    expect(reasonFor(error, BETA)).toBe('prompt price above provider.max_price.prompt');
  });

  test('a price the endpoint does not declare never exceeds a ceiling', () => {
    expect(routedIds(catalogue, chatRequest({ provider: { maxPrice: { image: '0' } } }))).toEqual([BETA, GAMMA, ALPHA]);
  });
});

describe('workspace routing defaults', () => {
  test('apply when the request states no preference', () => {
    expect(routedIds(catalogue, chatRequest(), { workspaceDefaults: { ignore: ['beta'] } })).toEqual([GAMMA, ALPHA]);
  });

  test('an explicit request preference wins key by key; other default keys still apply', () => {
    const workspaceDefaults = { only: ['alpha'], zdr: true };
    const request = chatRequest({ provider: { only: ['gamma', 'alpha'] } });
    expect(routedIds(catalogue, request, { workspaceDefaults })).toEqual([ALPHA]);
    const withoutZdr = chatRequest({ provider: { only: ['gamma', 'alpha'], zdr: false } });
    expect(routedIds(catalogue, withoutZdr, { workspaceDefaults })).toEqual([GAMMA, ALPHA]);
  });
});
