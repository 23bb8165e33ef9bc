import { describe, expect, test } from 'vitest';
import { computeOperationCost } from '../../../src/billing/operation-pricing.js';
import { parseUsd } from '../../../src/billing/money.js';
import { pricingOf } from '../../fixtures/catalogue/documents.js';

const NOW = new Date('2025-06-04T12:00:00Z');
const usd = parseUsd;

describe('operation billing lines (embeddings, rerank)', () => {
  test('reported tokens are charged at the prompt price, and nothing for output', () => {
    const priced = computeOperationCost(pricingOf({ prompt: '0.0000001', completion: '0.000002' }), { promptTokens: 30 }, NOW);
    expect(priced.lines).toEqual([{ key: 'prompt', quantity: '30', amount: usd('0.000003') }]);
    expect(priced.cost).toBe(usd('0.000003'));
  });

  test('a request price bills one request, beside the tokens when both are published', () => {
    const priced = computeOperationCost(pricingOf({ prompt: '0.0000001', request: '0.001' }), { promptTokens: 10 }, NOW);
    expect(priced.lines).toEqual([
      { key: 'prompt', quantity: '10', amount: usd('0.000001') },
      { key: 'request', quantity: '1', amount: usd('0.001') },
    ]);
    expect(priced.cost).toBe(usd('0.001001'));
  });

  test('with a prompt price but no reported count, the prompt is recorded unmeasured and charges nothing', () => {
    const priced = computeOperationCost(pricingOf({ prompt: '0.0000001' }), {}, NOW);
    expect(priced.lines).toEqual([{ key: 'prompt', quantity: 'unmeasured', amount: 0n }]);
    expect(priced.cost).toBe(0n);
  });

  test('an explicitly reported zero is a zero-token line, not an unmeasured one', () => {
    const priced = computeOperationCost(pricingOf({ prompt: '0.0000001' }), { promptTokens: 0 }, NOW);
    expect(priced.lines).toEqual([{ key: 'prompt', quantity: '0', amount: 0n }]);
  });

  test('without a prompt or request price, tokens and search units are recorded unpriced', () => {
    const priced = computeOperationCost(pricingOf({ completion: '0.000002' }), { promptTokens: 120, searchUnits: 2 }, NOW);
    expect(priced.lines).toEqual([
      { key: 'prompt', quantity: '120', amount: null },
      { key: 'search_units', quantity: '2', amount: null },
    ]);
    expect(priced.cost).toBe(0n);
  });

  test('search units stay unpriced when a request price is charged', () => {
    const priced = computeOperationCost(pricingOf({ request: '0.002' }), { searchUnits: 1 }, NOW);
    expect(priced.lines).toEqual([
      { key: 'request', quantity: '1', amount: usd('0.002') },
      { key: 'search_units', quantity: '1', amount: null },
    ]);
    expect(priced.cost).toBe(usd('0.002'));
  });

  test('prompt-length overrides apply to the reported count', () => {
    const pricing = pricingOf({ prompt: '0.0000001', overrides: [{ min_prompt_tokens: 100, prompt: '0.0000002' }] });
    expect(computeOperationCost(pricing, { promptTokens: 100 }, NOW).cost).toBe(usd('0.00001'));
    expect(computeOperationCost(pricing, { promptTokens: 101 }, NOW).cost).toBe(usd('0.0000202'));
  });
});
