import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { CatalogueStore } from '../../../src/catalogue/catalogue-store.js';
import { loadCatalogueFile } from '../../../src/catalogue/loader.js';
import { watchCatalogue } from '../../../src/catalogue/watcher.js';
import { catalogueDocument, endpointDocument } from '../../fixtures/catalogue/documents.js';

const ENDPOINT = 'sim-alpha/acme/chat';

function catalogueText(contextLength: number): string {
  return stringify(catalogueDocument([endpointDocument({ context_length: contextLength })]));
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('catalogue watcher', () => {
  let dir: string;
  let file: string;
  let store: CatalogueStore;
  const infos: string[] = [];
  const errors: string[] = [];
  let stop: () => void = () => undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-catalogue-'));
    file = join(dir, 'catalogue.yaml');
    await writeFile(file, catalogueText(1000));
    const loaded = await loadCatalogueFile(file);
    if (!loaded.ok) throw new Error('fixture invalid');
    store = new CatalogueStore(loaded.catalogue);
    infos.length = 0;
    errors.length = 0;
    stop = watchCatalogue(file, store, { info: (m) => infos.push(m), error: (m) => errors.push(m) }, { debounceMs: 20 });
  });

  afterEach(async () => {
    stop();
    await rm(dir, { recursive: true, force: true });
  });

  const contextLength = () => store.current().endpoints.get(ENDPOINT)?.contextLength;

  test('a changed file is reloaded into the store', async () => {
    await writeFile(file, catalogueText(2000));
    await eventually(() => contextLength() === 2000, 'the reload');
    expect(infos.at(-1)).toMatch(/catalogue reloaded from .*: 1 providers, 1 models, 1 endpoints/);
  });

  test('a bad reload keeps the previous catalogue and logs every problem', async () => {
    const before = store.current();
    const bad = catalogueDocument([endpointDocument({ context_length: 0, pricing: { prompt: 0.5 } })]);
    await writeFile(file, stringify(bad));
    await eventually(() => errors.includes('models[0].endpoints[0].pricing.prompt: not a decimal string'), 'the problems');
    expect(store.current()).toBe(before);
    expect(errors.slice(-3)).toEqual([
      expect.stringMatching(/has 2 problem\(s\); keeping the previous catalogue$/),
      'models[0].endpoints[0].context_length: must be at least 1',
      'models[0].endpoints[0].pricing.prompt: not a decimal string',
    ]);
  });

  test('an editor that writes a new file and renames it over the old one is followed', async () => {
    const temporary = join(dir, '.catalogue.yaml.swp');
    await writeFile(temporary, catalogueText(3000));
    await rename(temporary, file);
    await eventually(() => contextLength() === 3000, 'the reload after a rename');
  });

  test('after stop, changes are no longer loaded', async () => {
    stop();
    await writeFile(file, catalogueText(4000));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(contextLength()).toBe(1000);
  });
});
