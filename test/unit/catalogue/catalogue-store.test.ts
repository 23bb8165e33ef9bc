import { describe, expect, test } from 'vitest';
import { CatalogueStore } from '../../../src/catalogue/catalogue-store.js';
import { catalogueDocument, endpointDocument, validCatalogue } from '../../fixtures/catalogue/documents.js';

describe('catalogue store', () => {
  test('a swap leaves the snapshot an in-flight request took untouched and tells listeners', () => {
    const first = validCatalogue(catalogueDocument());
    const second = validCatalogue(catalogueDocument([endpointDocument({ context_length: 999 })]));
    const store = new CatalogueStore(first);
    const taken = store.current();
    const seen: number[] = [];
    const stop = store.onChange((next, previous) => {
      expect(previous).toBe(first);
      seen.push(next.endpoints.get('sim-alpha/acme/chat')?.contextLength ?? 0);
    });
    store.replace(second);
    expect(taken.endpoints.get('sim-alpha/acme/chat')?.contextLength).toBe(8192);
    expect(store.current()).toBe(second);
    expect(seen).toEqual([999]);
    stop();
    store.replace(first);
    expect(seen).toEqual([999]);
  });
});
