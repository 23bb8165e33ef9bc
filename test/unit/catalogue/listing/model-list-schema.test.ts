import { describe, expect, test } from 'vitest';
import { ModelQuerySchema, PageQuerySchema } from '../../../../src/catalogue/listing/model-list-schema.js';
import { MODEL_QUERY_PARAMETERS, PAGE_PARAMETERS, UNSUPPORTED_FILTERS, readModelQuery } from '../../../../src/catalogue/listing/model-query.js';

describe('the documented query parameters', () => {
  test('GET /models documents exactly the parameters it reads, and those it accepts without computing', () => {
    expect(Object.keys(ModelQuerySchema.properties).sort()).toEqual([...MODEL_QUERY_PARAMETERS, ...UNSUPPORTED_FILTERS].sort());
  });

  test('the unfiltered lists document exactly limit and offset, and refuse the rest', () => {
    expect(Object.keys(PageQuerySchema.properties).sort()).toEqual([...PAGE_PARAMETERS].sort());
    expect(() => readModelQuery({ q: 'chat' }, { pageOnly: true })).toThrow(/q/);
  });

  test('every documented sort is read', () => {
    const sorts = (ModelQuerySchema.properties.sort as unknown as { anyOf: { const: string }[] }).anyOf.map((literal) => literal.const);
    for (const sort of sorts) expect(() => readModelQuery({ sort })).not.toThrow();
  });
});
