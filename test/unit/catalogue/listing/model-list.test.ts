import { describe, expect, test } from 'vitest';
import { listingOf } from '../../../../src/catalogue/listing/listing-snapshot.js';
import { modelListBody } from '../../../../src/catalogue/listing/model-list.js';
import { readModelQuery } from '../../../../src/catalogue/listing/model-query.js';
import { NOT_COMPUTED, type EndpointFigures, type MeasuredFigures } from '../../../../src/stats/endpoint-figures.js';
import { listingCatalogue } from './listing-catalogue.js';

const catalogue = listingCatalogue();
const NOW = Date.UTC(2025, 9, 1);

/** Tool-call success of 95% on alpha's endpoint of acme/chat, nothing measured elsewhere. */
const figures: EndpointFigures = {
  figuresOf: (endpointId): MeasuredFigures => endpointId === 'alpha/acme/chat'
    ? { ...NOT_COMPUTED, toolCallSuccess1d: { value: 95, samples: 40 } }
    : NOT_COMPUTED,
};

interface Reply {
  data: { id: string }[];
  total_count: number;
  links: { next: string | null };
  unsupported_filters?: string[];
}

function list(raw: Record<string, string> = {}): Reply {
  const body = modelListBody(listingOf(catalogue), readModelQuery(raw), { now: NOW, figures }, { path: '/api/v1/models', query: raw });
  return JSON.parse(body) as Reply;
}

const ids = (raw: Record<string, string> = {}) => list(raw).data.map((model) => model.id);

describe('GET /models list', () => {
  test('every model with a live endpoint, newest first', () => {
    expect(ids()).toEqual(['acme/thinker', 'other/embed', 'acme/chat', 'other/voice']);
    expect(list()).toMatchObject({ total_count: 4, links: { next: null } });
  });

  test.each([
    [{ family: 'acme-chat' }, ['acme/thinker', 'acme/chat']],
    [{ q: 'EMBED' }, ['other/embed']],
    [{ q: 'acme: th' }, ['acme/thinker']],
    [{ supported_parameters: 'tools,temperature' }, ['acme/chat']],
    [{ output_modalities: 'embeddings' }, ['other/embed']],
    [{ input_modalities: 'text,image' }, []],
    [{ context: '100000' }, ['acme/chat']],
    [{ max_price: '0.5' }, ['other/embed', 'acme/chat']],
    [{ min_price: '0.5', max_price: '0.5' }, ['acme/chat']],
    [{ min_price: '1' }, ['acme/thinker', 'acme/chat']],
    [{ min_output_price: '30' }, ['acme/thinker']],
    [{ providers: 'gamma,alpha' }, ['other/embed', 'acme/chat', 'other/voice']],
    [{ model_authors: 'other' }, ['other/embed', 'other/voice']],
    [{ zdr: 'true' }, ['other/embed', 'acme/chat', 'other/voice']],
    [{ zdr: 'false' }, ['acme/thinker', 'other/embed', 'acme/chat', 'other/voice']],
    [{ region: 'eu' }, ['acme/thinker', 'acme/chat']],
    [{ region: 'jp' }, ['other/embed']],
    [{ min_age_days: '365' }, ['other/voice']],
    [{ max_age_days: '100' }, ['acme/thinker', 'other/embed']],
    [{ max_age_days: '150' }, ['acme/thinker', 'other/embed', 'acme/chat']],
    [{ min_tool_success_rate: '90' }, ['acme/chat']],
    [{ max_tool_success_rate: '90' }, []],
  ])('filter %o keeps %o', (raw, expected) => {
    expect(ids(raw)).toEqual(expected);
  });

  test('filters combine with AND', () => {
    expect(ids({ family: 'acme-chat', zdr: 'true' })).toEqual(['acme/chat']);
    expect(ids({ model_authors: 'other', output_modalities: 'speech', region: 'us' })).toEqual(['other/voice']);
  });

  test('filters never change the summary: the summary endpoint stays the cheapest', () => {
    const listed = list({ providers: 'beta' }).data as unknown as { id: string; pricing: { prompt: string }; context_length: number }[];
    const chat = listed.find((model) => model.id === 'acme/chat');
    expect(chat?.pricing.prompt).toBe('0.0000005');
    expect(chat?.context_length).toBe(8192);
  });

  test.each([
    ['oldest', ['other/voice', 'acme/chat', 'other/embed', 'acme/thinker']],
    ['price-low-to-high', ['other/embed', 'acme/chat', 'acme/thinker', 'other/voice']],
    ['price-high-to-low', ['acme/thinker', 'acme/chat', 'other/embed', 'other/voice']],
    ['context-high-to-low', ['acme/thinker', 'acme/chat', 'other/embed', 'other/voice']],
  ])('sort %s', (sort, expected) => {
    expect(ids({ sort })).toEqual(expected);
  });

  test('limit and offset apply after the filters, and links.next names the next page', () => {
    expect(list({ limit: '2' })).toMatchObject({ total_count: 4, links: { next: '/api/v1/models?limit=2&offset=2' } });
    expect(ids({ limit: '2', offset: '2' })).toEqual(['acme/chat', 'other/voice']);
    expect(list({ limit: '2', offset: '2' }).links.next).toBeNull();
    expect(ids({ zdr: 'true', offset: '1' })).toEqual(['acme/chat', 'other/voice']);
  });

  test('an accepted-but-not-computed filter empties the list and is named', () => {
    expect(list({ category: 'programming', q: 'chat', distillable: 'true' })).toEqual({
      data: [], unsupported_filters: ['category', 'distillable'], total_count: 0, links: { next: null },
    });
  });
});
