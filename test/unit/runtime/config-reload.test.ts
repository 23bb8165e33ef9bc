import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { CatalogueStore } from '../../../src/catalogue/catalogue-store.js';
import { loadCatalogueFile } from '../../../src/catalogue/loader.js';
import { resolveSettings, type Settings, type SettingsPatch } from '../../../src/settings/settings-table.js';
import { startConfigReload, type ConfigReload } from '../../../src/runtime/config-reload.js';
import { catalogueDocument, endpointDocument, providerDocument, validCatalogue } from '../../fixtures/catalogue/documents.js';

const ENDPOINT = 'sim-alpha/acme/chat';

interface LogLine {
  level: number;
  msg: string;
  trigger?: string;
  [field: string]: unknown;
}

function catalogueText(contextLength: number, extra: Record<string, unknown> = {}): string {
  return stringify({ ...catalogueDocument([endpointDocument({ context_length: contextLength })]), ...extra });
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A reload over `file` writing its log to `lines`, its live settings to `live`. */
async function startReload(file: string, lines: LogLine[], live: Settings[], env: NodeJS.ProcessEnv = {}) {
  const loaded = await loadCatalogueFile(file);
  if (!loaded.ok) throw new Error('fixture invalid');
  const store = new CatalogueStore(loaded.catalogue);
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as LogLine) });
  const resolve = (written: SettingsPatch) => resolveSettings(written);
  const reload = startConfigReload(
    { file, settings: resolve(loaded.settings), debounceMs: 20 },
    { catalogue: store, logger, env, resolve, applyLive: (settings) => live.push(settings) },
  );
  return { store, reload };
}

describe('config reload', () => {
  let dir: string;
  let file: string;
  let store: CatalogueStore;
  let reload: ConfigReload;
  const lines: LogLine[] = [];
  const live: Settings[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-catalogue-'));
    file = join(dir, 'catalogue.yaml');
    await writeFile(file, catalogueText(1000));
    lines.length = 0;
    live.length = 0;
    ({ store, reload } = await startReload(file, lines, live));
  });

  afterEach(async () => {
    reload.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const contextLength = () => store.current().endpoints.get(ENDPOINT)?.contextLength;

  test('a changed file is reloaded into the store and the outcome logged with its counts', async () => {
    await writeFile(file, catalogueText(2000));
    await eventually(() => contextLength() === 2000, 'the reload');
    expect(lines.at(-1)).toMatchObject({
      msg: expect.stringMatching(/^catalogue reloaded from .*: 1 providers, 1 models, 1 endpoints$/),
      trigger: 'file change',
    });
  });

  test('a bad reload keeps the previous catalogue and logs every problem', async () => {
    const before = store.current();
    const bad = catalogueDocument([endpointDocument({ context_length: 0, pricing: { prompt: 0.5 } })]);
    await writeFile(file, stringify(bad));
    await eventually(() => lines.some((line) => line.msg.includes('problem(s)')), 'the problems');
    expect(store.current()).toBe(before);
    expect(lines.at(-1)?.problems).toEqual([
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
    reload.stop();
    await writeFile(file, catalogueText(4000));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(contextLength()).toBe(1000);
  });

  test('SIGHUP reads the file even when unchanged, and logs that it did', async () => {
    await reload.reload('SIGHUP');
    expect(lines.at(-1)).toMatchObject({ msg: expect.stringMatching(/^catalogue reloaded/), trigger: 'SIGHUP' });
    await writeFile(file, catalogueText(5000));
    await reload.reload('SIGHUP');
    expect(contextLength()).toBe(5000);
  });

  test('changed rate limits apply at once; other changed settings are logged as taking effect at restart', async () => {
    const settings = { rate_limits: { per_key_per_minute: 30 }, server: { drain_grace_ms: 500 } };
    await writeFile(file, catalogueText(1000, { settings }));
    await reload.reload('SIGHUP');
    expect(live.at(-1)?.['rate_limits.per_key_per_minute']).toBe(30);
    expect(live.at(-1)?.['server.drain_grace_ms']).toBe(10_000);
    expect(lines.at(-1)).toMatchObject({
      msg: expect.stringMatching(/; takes effect at restart: settings\.server\.drain_grace_ms$/),
      settingsApplied: ['rate_limits.per_key_per_minute'],
      settingsAtRestart: ['server.drain_grace_ms'],
    });
  });

  test('a provider whose api_key_env is unset is a warning naming the variable and the provider', async () => {
    const document = catalogueDocument([endpointDocument()]);
    document.providers = [{ ...providerDocument(), api_key_env: 'SWITCHYARD_TEST_UNSET_KEY' }];
    await writeFile(file, stringify(document));
    await reload.reload('SIGHUP');
    expect(lines.at(-1)).toMatchObject({
      level: 40,
      provider: 'sim-alpha',
      variable: 'SWITCHYARD_TEST_UNSET_KEY',
      msg: 'providers[0].api_key_env: SWITCHYARD_TEST_UNSET_KEY is not set: requests to provider sim-alpha carry no credential',
    });
  });
});

describe('config reload of a ConfigMap volume', () => {
  test('a swap of the ..data symlink, the way Kubernetes updates a ConfigMap, is followed', async () => {
    // dir/catalogue.yaml → ..data/catalogue.yaml; ..data → ..2025_01_01_v1 (a timestamped directory)
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-configmap-'));
    const writeVersion = async (version: string, contextLength: number) => {
      await mkdir(join(dir, version));
      await writeFile(join(dir, version, 'catalogue.yaml'), catalogueText(contextLength));
    };
    await writeVersion('..2025_01_01_v1', 1000);
    await symlink('..2025_01_01_v1', join(dir, '..data'));
    await symlink(join('..data', 'catalogue.yaml'), join(dir, 'catalogue.yaml'));
    const lines: LogLine[] = [];
    const { store, reload } = await startReload(join(dir, 'catalogue.yaml'), lines, []);
    try {
      await writeVersion('..2025_01_01_v2', 6000);
      await symlink('..2025_01_01_v2', join(dir, '..data_tmp'));
      await rename(join(dir, '..data_tmp'), join(dir, '..data'));
      await rm(join(dir, '..2025_01_01_v1'), { recursive: true });
      await eventually(() => store.current().endpoints.get(ENDPOINT)?.contextLength === 6000, 'the reload after the swap');
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    } finally {
      reload.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('config reload without a config file', () => {
  test('the demo has nothing to reload, says so, and reports it as a reload outcome (the metrics count it)', async () => {
    const lines: LogLine[] = [];
    const outcomes: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as LogLine) });
    const reload = startConfigReload(
      { settings: resolveSettings() },
      {
        catalogue: new CatalogueStore(validCatalogue(catalogueDocument())), logger, env: {}, resolve: resolveSettings, applyLive: () => undefined,
        observe: (report) => outcomes.push(report.outcome),
      },
    );
    await reload.reload('SIGHUP');
    expect(lines.map((line) => line.msg)).toEqual(['no config file (the embedded demo): nothing to reload']);
    expect(outcomes).toEqual(['nothing to reload']);
  });
});
