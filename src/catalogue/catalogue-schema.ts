import { buildCatalogue, type ModelDraft } from './index-builder.js';
import { MappingReader } from './mapping-reader.js';
import { readModel } from './model-schema.js';
import { ProblemList } from './problem-list.js';
import { readProvider } from './provider-schema.js';
import { readSettings } from './settings-schema.js';
import type { SettingsPatch } from '../settings/settings-table.js';
import type { Catalogue, CatalogueProblem, ProviderEntry } from './types.js';

/** A valid file: its catalogue and the operator settings its `settings:` block writes. */
export type CatalogueResult = { ok: true; catalogue: Catalogue; settings: SettingsPatch } | { ok: false; problems: CatalogueProblem[] };

const ROOT_FIELDS = ['providers', 'models', 'settings'];

/**
 * Validates a parsed catalogue document and indexes it. Every problem is collected with its
 * path; any problem at all means nothing loads.
 */
export function validateCatalogue(document: unknown, loadedAt: number = Date.now()): CatalogueResult {
  const problems = new ProblemList();
  const root = MappingReader.open(document, '', problems, ROOT_FIELDS);
  if (!root) return { ok: false, problems: problems.items };
  const providers = readProviders(root, problems);
  const bySlug = new Map(providers.filter((provider) => provider.slug !== '').map((provider) => [provider.slug, provider]));
  const models = readModels(root, bySlug, problems);
  const settings = readSettings(root);
  if (problems.size > 0) return { ok: false, problems: problems.items };
  return { ok: true, catalogue: buildCatalogue(providers, models, loadedAt), settings };
}

function readProviders(root: MappingReader, problems: ProblemList): ProviderEntry[] {
  const providers: ProviderEntry[] = [];
  const seen = new Set<string>();
  const ids = new Set<string>();
  for (const item of root.list('providers')) {
    const provider = readProvider(item.value, item.path, problems);
    if (!provider) continue;
    if (provider.slug !== '' && seen.has(provider.slug)) problems.add(`${item.path}.slug`, `duplicate provider "${provider.slug}"`);
    else if (provider.id !== '' && ids.has(provider.id)) problems.add(`${item.path}.id`, `duplicate provider id "${provider.id}"`);
    seen.add(provider.slug);
    ids.add(provider.id);
    providers.push(provider);
  }
  return providers;
}

function readModels(root: MappingReader, providers: ReadonlyMap<string, ProviderEntry>, problems: ProblemList): ModelDraft[] {
  const models: ModelDraft[] = [];
  const seen = new Set<string>();
  for (const item of root.list('models')) {
    const model = readModel(item.value, item.path, providers, problems);
    if (!model) continue;
    if (model.id !== '' && seen.has(model.id)) problems.add(`${item.path}.id`, `duplicate model "${model.id}"`);
    seen.add(model.id);
    models.push(model);
  }
  return models;
}
