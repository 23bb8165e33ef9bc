import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { demoCatalogueYaml } from '../../../src/catalogue/demo.js';
import { listingOf, prepareListing } from '../../../src/catalogue/listing/listing-snapshot.js';
import { parseCatalogueText, type CatalogueResult } from '../../../src/catalogue/loader.js';
import type { Catalogue } from '../../../src/catalogue/types.js';
import { readCatalogueInWorker } from '../../../src/catalogue/worker-catalogue-reader.js';
import { endpointDocument, providerDocument } from '../../fixtures/catalogue/documents.js';

/** Enough models that the handover takes several batches, in families, on two providers. */
function largeCatalogueText(models: number): string {
  return stringify({
    providers: [providerDocument('sim-alpha'), providerDocument('sim-beta')],
    models: Array.from({ length: models }, (_, number) => ({
      id: `acme/model-${number}`,
      name: `Acme: Model ${number}`,
      created: 1_700_000_000 + number,
      family: `family-${number % 7}`,
      endpoints: [
        endpointDocument({ context_length: 1_024 * (1 + (number % 9)) }),
        endpointDocument({ provider: 'sim-beta', quantization: 'fp8', pricing: { prompt: `0.00000${1 + (number % 9)}`, completion: '0.000002' } }),
      ],
    })),
    settings: { rate_limits: { per_key_per_minute: 42 } },
  });
}

function comparable(result: CatalogueResult): unknown {
  return result.ok ? { catalogue: { ...result.catalogue, loadedAt: 0 }, settings: result.settings } : result;
}

function validOf(result: CatalogueResult): Catalogue {
  if (!result.ok) throw new Error(result.problems.map((problem) => `${problem.path}: ${problem.message}`).join('\n'));
  return result.catalogue;
}

describe('reading a catalogue in a worker thread', () => {
  test('a file of 400 models handed over in batches gives the catalogue and settings a direct parse gives', async () => {
    const text = largeCatalogueText(400);
    const direct = parseCatalogueText(text, 'catalogue.yaml');
    const read = await readCatalogueInWorker(text, 'catalogue.yaml');
    expect(validOf(read).models.size).toBe(400);
    expect(comparable(read)).toEqual(comparable(direct));
    expect([...validOf(read).models.keys()]).toEqual([...validOf(direct).models.keys()]);
    expect([...validOf(read).families.entries()]).toEqual([...validOf(direct).families.entries()]);
  });

  test('the demo catalogue, with every kind of declaration, reads the same as a direct parse', async () => {
    const text = demoCatalogueYaml('http://127.0.0.1:9101');
    expect(comparable(await readCatalogueInWorker(text, 'demo.yaml'))).toEqual(comparable(parseCatalogueText(text, 'demo.yaml')));
  });

  test('the listing comes rendered beside the catalogue: prepared from it, it is the listing this thread renders', async () => {
    const text = largeCatalogueText(300);
    const read = await readCatalogueInWorker(text, 'catalogue.yaml');
    expect(read.rendered?.ids).toHaveLength(300);
    const catalogue = validOf(read);
    await prepareListing(catalogue, read.rendered);
    const prepared = listingOf(catalogue);
    const own = listingOf(validOf(parseCatalogueText(text, 'catalogue.yaml')));
    expect(prepared.wholeList.text).toBe(own.wholeList.text);
    expect(prepared.models.map((listed) => [listed.model.id, listed.json])).toEqual(own.models.map((listed) => [listed.model.id, listed.json]));
    expect(gunzipSync(prepared.wholeList.gzipped).toString()).toBe(own.wholeList.text);
  });

  test('every endpoint points at its provider entry in the snapshot, one entry per provider', async () => {
    const catalogue = validOf(await readCatalogueInWorker(largeCatalogueText(200), 'catalogue.yaml'));
    for (const endpoint of catalogue.endpoints.values()) {
      expect(endpoint.provider).toBe(catalogue.providers.get(endpoint.provider.slug));
    }
    for (const model of catalogue.models.values()) {
      for (const endpoint of model.endpoints) expect(catalogue.endpoints.get(endpoint.id)).toBe(endpoint);
    }
  });

  test('a file with invalid fields gives the same problems with the same paths as a direct parse', async () => {
    const text = stringify({
      providers: [providerDocument('sim-alpha')],
      models: [
        { id: 'acme/ok', name: 'OK', created: '2025-06-01', endpoints: [endpointDocument()] },
        { id: 'not an id', name: 'Bad', created: '2025-13-01', endpoints: [endpointDocument({ pricing: { prompt: 0.5 }, provider: 'nowhere' })] },
      ],
    });
    const direct = parseCatalogueText(text, 'catalogue.yaml');
    expect(direct.ok).toBe(false);
    expect(await readCatalogueInWorker(text, 'catalogue.yaml')).toEqual(direct);
  });

  test('a YAML syntax error is reported with the file, line and column, as a direct parse reports it', async () => {
    const text = 'providers: [unclosed\nmodels: {';
    const direct = parseCatalogueText(text, 'catalogue.yaml');
    expect(direct.ok).toBe(false);
    expect(await readCatalogueInWorker(text, 'catalogue.yaml')).toEqual(direct);
  });
});
