import { describe, expect, test } from 'vitest';
import { parseUsd } from '../../../../src/billing/money.js';
import { readModelQuery } from '../../../../src/catalogue/listing/model-query.js';
import { GatewayError } from '../../../../src/core/errors.js';

function refusal(raw: Record<string, unknown>, options = {}): { message: string; field: unknown } {
  try {
    readModelQuery(raw, options);
  } catch (error) {
    if (error instanceof GatewayError) return { message: error.message, field: error.metadata.field };
    throw error;
  }
  throw new Error('accepted');
}

describe('GET /models query', () => {
  test('reads every filter of the table', () => {
    const query = readModelQuery({
      family: 'acme-chat', q: 'Chat', supported_parameters: 'tools, temperature', input_modalities: 'text,image', output_modalities: 'text',
      context: '8192', min_price: '0.1', max_price: '2.5', min_output_price: '0', max_output_price: '10', providers: 'alpha', model_authors: 'Acme',
      zdr: 'true', region: 'EU,us', min_age_days: '1', max_age_days: '400', min_tool_success_rate: '90', max_tool_success_rate: '100',
      sort: 'price-low-to-high', limit: '10', offset: '20',
    });
    expect(query).toEqual({
      family: 'acme-chat', q: 'chat', supportedParameters: ['tools', 'temperature'], inputModalities: ['text', 'image'], outputModalities: ['text'],
      context: 8192, promptPrice: { min: parseUsd('0.1'), max: parseUsd('2.5') }, completionPrice: { min: 0n, max: parseUsd('10') },
      providers: ['alpha'], modelAuthors: ['acme'], zdr: true, regions: ['eu', 'us'], ageDays: { min: 1, max: 400 },
      toolSuccessRate: { min: 90, max: 100 }, sort: 'price-low-to-high', limit: 10, offset: 20, unsupportedFilters: [],
    });
  });

  test('the price orders are read in the hosted marketplace\'s spelling too', () => {
    expect(readModelQuery({ sort: 'pricing-high-to-low' }).sort).toBe('price-high-to-low');
  });

  test('an unknown parameter is refused naming it', () => {
    expect(refusal({ colour: 'red' })).toEqual({ message: 'colour: unknown query parameter', field: 'colour' });
  });

  test('names every object inherits are unknown parameters and unknown values', () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      expect(refusal(JSON.parse(`{"${name}": "1"}`) as Record<string, unknown>)).toEqual({ message: `${name}: unknown query parameter`, field: name });
      expect(refusal({ sort: name }).field).toBe('sort');
    }
  });

  test('malformed values are refused naming the parameter', () => {
    expect(refusal({ context: 'big' }).field).toBe('context');
    expect(refusal({ zdr: 'yes' }).message).toBe('zdr: must be true or false');
    expect(refusal({ sort: 'popular' }).field).toBe('sort');
    expect(refusal({ min_tool_success_rate: '101' }).message).toBe('min_tool_success_rate: must be from 0 to 100');
    expect(refusal({ q: ['a', 'b'] }).message).toBe('q: must be given once');
    expect(refusal({ providers: ' , ' }).field).toBe('providers');
  });

  test('price bounds are exact decimals: exponents, negatives and excess digits are refused', () => {
    expect(refusal({ min_price: '1e-7' }).field).toBe('min_price');
    expect(refusal({ max_output_price: '-1' }).field).toBe('max_output_price');
    expect(refusal({ max_price: `0.${'0'.repeat(24)}1` }).field).toBe('max_price');
    expect(refusal({ min_price: '2', max_price: '1' }).message).toBe('min_price: must not exceed max_price');
  });

  test('limit out of range is refused', () => {
    expect(refusal({ limit: '0' }).message).toBe('limit: must be from 1 to 1000');
    expect(refusal({ limit: '1001' }).field).toBe('limit');
    expect(refusal({ offset: '-1' }).field).toBe('offset');
  });

  test('accepted-but-not-computed filters are recorded, whatever their value', () => {
    expect(readModelQuery({ category: 'programming', min_coding_index: 'x', q: 'chat' }).unsupportedFilters).toEqual(['category', 'min_coding_index']);
  });

  test('the unfiltered lists read only limit and offset', () => {
    expect(readModelQuery({ limit: '5', offset: '1' }, { pageOnly: true })).toMatchObject({ limit: 5, offset: 1 });
    expect(refusal({ q: 'chat' }, { pageOnly: true })).toEqual({ message: 'q: unknown query parameter', field: 'q' });
    expect(refusal({ category: 'programming' }, { pageOnly: true }).field).toBe('category');
  });
});
