import { describe, expect, test } from 'vitest';
import { computeImageCost, computeOperationCost, computeTranscriptionCost } from '../../../src/billing/operation-pricing.js';
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

describe('image billing lines (rule 13)', () => {
  test('each picture at image_output, the megapixels read from the bytes at image_megapixel, output tokens at image_output_token, exactly', () => {
    const pricing = pricingOf({ prompt: '0.000005', image_output: '0.04', image_megapixel: '0.0123', image_output_token: '0.00004' });
    const priced = computeImageCost(pricing, { promptTokens: 12, images: 2, megapixels: '0.524288', outputTokens: 544 }, NOW);
    expect(priced.lines).toEqual([
      { key: 'prompt', quantity: '12', amount: usd('0.00006') },
      { key: 'image_output', quantity: '2', amount: usd('0.08') },
      { key: 'image_megapixel', quantity: '0.524288', amount: usd('0.0064487424') },
      { key: 'image_output_token', quantity: '544', amount: usd('0.02176') },
    ]);
    expect(priced.cost).toBe(usd('0.00006') + usd('0.08') + usd('0.0064487424') + usd('0.02176'));
  });

  test('each reference picture in the prompt at image; none sent, no line', () => {
    const priced = computeImageCost(pricingOf({ image: '0.0025', image_output: '0.01' }), { images: 1, referenceImages: 3 }, NOW);
    expect(priced.lines).toEqual([
      { key: 'image', quantity: '3', amount: usd('0.0075') },
      { key: 'image_output', quantity: '1', amount: usd('0.01') },
    ]);
    expect(priced.cost).toBe(usd('0.0175'));
    expect(computeImageCost(pricingOf({ image: '0.0025' }), { images: 1, referenceImages: 0 }, NOW).lines.map((line) => line.key)).toEqual(['image_output']);
  });

  test('a unit without a published price is recorded unpriced and charges nothing; one not measured has no line', () => {
    const priced = computeImageCost(pricingOf({ image_output: '0.01' }), { images: 1, megapixels: '1.048576' }, NOW);
    expect(priced.lines).toEqual([
      { key: 'image_output', quantity: '1', amount: usd('0.01') },
      { key: 'image_megapixel', quantity: '1.048576', amount: null },
    ]);
    expect(priced.cost).toBe(usd('0.01'));
    const unpriced = computeImageCost(pricingOf({ image_megapixel: '0.02' }), { images: 3, outputTokens: 100 }, NOW);
    expect(unpriced.lines).toEqual([
      { key: 'image_output', quantity: '3', amount: null },
      { key: 'image_output_token', quantity: '100', amount: null },
    ]);
    expect(unpriced.cost).toBe(0n);
  });
});

describe('transcription billing lines (rule 13)', () => {
  test('the seconds read from the container at audio_second, exactly', () => {
    const priced = computeTranscriptionCost(pricingOf({ audio_second: '0.0001' }), { seconds: '2.345678' }, NOW);
    expect(priced.lines).toEqual([{ key: 'audio_second', quantity: '2.345678', amount: usd('0.0002345678') }]);
    expect(priced.cost).toBe(usd('0.0002345678'));
  });

  test('the seconds line is always there: unpriced, it records the seconds and charges nothing', () => {
    const priced = computeTranscriptionCost(pricingOf({ completion: '0.00001' }), { seconds: '4.000000' }, NOW);
    expect(priced.lines).toEqual([{ key: 'audio_second', quantity: '4.000000', amount: null }]);
    expect(priced.cost).toBe(0n);
  });

  test('reported tokens at prompt and completion beside the unpriced seconds', () => {
    const priced = computeTranscriptionCost(pricingOf({ prompt: '0.0000025', completion: '0.00001' }), { seconds: '4.000000', promptTokens: 40, outputTokens: 12 }, NOW);
    expect(priced.lines).toEqual([
      { key: 'audio_second', quantity: '4.000000', amount: null },
      { key: 'prompt', quantity: '40', amount: usd('0.0001') },
      { key: 'completion', quantity: '12', amount: usd('0.00012') },
    ]);
    expect(priced.cost).toBe(usd('0.00022'));
  });

  test('tokens reported where no token price is published are recorded unpriced', () => {
    const priced = computeTranscriptionCost(pricingOf({ audio_second: '0.0001' }), { seconds: '1.500000', promptTokens: 15, outputTokens: 3 }, NOW);
    expect(priced.lines).toEqual([
      { key: 'audio_second', quantity: '1.500000', amount: usd('0.00015') },
      { key: 'prompt', quantity: '15', amount: null },
      { key: 'completion', quantity: '3', amount: null },
    ]);
    expect(priced.cost).toBe(usd('0.00015'));
  });

  test('a request price bills one request', () => {
    const priced = computeTranscriptionCost(pricingOf({ audio_second: '0.0001', request: '0.002' }), { seconds: '10.000000' }, NOW);
    expect(priced.lines).toEqual([
      { key: 'audio_second', quantity: '10.000000', amount: usd('0.001') },
      { key: 'request', quantity: '1', amount: usd('0.002') },
    ]);
    expect(priced.cost).toBe(usd('0.003'));
  });

  test('a published prompt price with no count reported is an unmeasured prompt line charging nothing', () => {
    const priced = computeTranscriptionCost(pricingOf({ prompt: '0.0000025', completion: '0.00001' }), { seconds: '3.000000' }, NOW);
    expect(priced.lines).toEqual([
      { key: 'audio_second', quantity: '3.000000', amount: null },
      { key: 'prompt', quantity: 'unmeasured', amount: 0n },
    ]);
    expect(priced.cost).toBe(0n);
  });

  test('a fraction of the smallest unit is rounded up, never down', () => {
    // a price of one unit (10^-24 USD) a second, for a third of a second
    const priced = computeTranscriptionCost(pricingOf({ audio_second: '0.000000000000000000000001' }), { seconds: '0.333333' }, NOW);
    expect(priced.cost).toBe(1n);
  });

  test('prompt-length overrides apply to the reported count', () => {
    const pricing = pricingOf({ prompt: '0.000001', audio_second: '0.0001', overrides: [{ min_prompt_tokens: 100, prompt: '0.000002', audio_second: '0.0002' }] });
    expect(computeTranscriptionCost(pricing, { seconds: '1.000000', promptTokens: 100 }, NOW).cost).toBe(usd('0.0001') + usd('0.0001'));
    expect(computeTranscriptionCost(pricing, { seconds: '1.000000', promptTokens: 101 }, NOW).cost).toBe(usd('0.0002') + usd('0.000202'));
  });
});
