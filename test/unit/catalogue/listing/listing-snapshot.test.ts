import { describe, expect, test } from 'vitest';
import { summaryOf, type ListedModel } from '../../../../src/catalogue/listing/listed-model.js';
import { listingOf } from '../../../../src/catalogue/listing/listing-snapshot.js';
import { CatalogueStore } from '../../../../src/catalogue/catalogue-store.js';
import { catalogueDocument, endpointDocument, validCatalogue } from '../../../fixtures/catalogue/documents.js';

describe('listing snapshot', () => {
  test('is rendered once per catalogue snapshot and follows a reload', () => {
    const store = new CatalogueStore(validCatalogue(catalogueDocument()));
    const first = listingOf(store.current());
    expect(listingOf(store.current())).toBe(first);
    const reloaded = catalogueDocument([endpointDocument({ pricing: { prompt: '0.000009' } })]);
    store.replace(validCatalogue(reloaded));
    const second = listingOf(store.current());
    expect(second).not.toBe(first);
    expect(summaryOf(second.byId.get('acme/chat') as ListedModel).pricing).toEqual({ prompt: '0.000009', discount: 0 });
    expect(JSON.parse(second.wholeList.text)).toMatchObject({ data: [{ id: 'acme/chat', pricing: { prompt: '0.000009' } }], total_count: 1 });
  });
});
