import { describe, expect, test } from 'vitest';
import { demoCatalogueYaml } from '../../../../src/catalogue/demo.js';
import { listingOf, prepareListing } from '../../../../src/catalogue/listing/listing-snapshot.js';
import { parseCatalogueText } from '../../../../src/catalogue/loader.js';
import type { Catalogue } from '../../../../src/catalogue/types.js';

function demoCatalogue(): Catalogue {
  const result = parseCatalogueText(demoCatalogueYaml('http://127.0.0.1:9101'), 'demo', 0);
  if (!result.ok) throw new Error('demo catalogue invalid');
  return result.catalogue;
}

describe('listing prepared ahead of the first read', () => {
  test('a prepared listing is the one a first read renders: same models, same order, same text', async () => {
    const prepared = demoCatalogue();
    await prepareListing(prepared);
    const rendered = listingOf(demoCatalogue());
    const listing = listingOf(prepared);
    expect(listing.wholeList.text).toBe(rendered.wholeList.text);
    expect(listing.models.map((listed) => listed.model.id)).toEqual(rendered.models.map((listed) => listed.model.id));
    expect([...listing.byId.keys()]).toEqual([...rendered.byId.keys()]);
  });

  test('preparing a listing already read keeps the one read, so readers holding it see no change', async () => {
    const catalogue = demoCatalogue();
    const first = listingOf(catalogue);
    await prepareListing(catalogue);
    expect(listingOf(catalogue)).toBe(first);
  });
});
