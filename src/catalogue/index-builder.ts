import type { EndpointDraft } from './endpoint-schema.js';
import type { Catalogue, EndpointEntry, ModelEntry, ProviderEntry } from './types.js';

/** A model as read from the file, its endpoints not yet given their identities. */
export type ModelDraft = Omit<ModelEntry, 'endpoints'> & { endpoints: EndpointDraft[] };

type EndpointIdentityParts = Pick<EndpointDraft, 'quantization'> & { provider: Pick<ProviderEntry, 'slug'> };

/**
 * Endpoint identities of one model, in order: `<provider slug>/<model id>`, plus
 * `/<quantization>` (or `/unknown`) when several endpoints of the model share the provider.
 */
export function endpointIds(modelId: string, endpoints: readonly EndpointIdentityParts[]): string[] {
  const perProvider = new Map<string, number>();
  for (const endpoint of endpoints) {
    perProvider.set(endpoint.provider.slug, (perProvider.get(endpoint.provider.slug) ?? 0) + 1);
  }
  return endpoints.map((endpoint) => {
    const base = `${endpoint.provider.slug}/${modelId}`;
    const shared = (perProvider.get(endpoint.provider.slug) ?? 0) > 1;
    return shared ? `${base}/${endpoint.quantization ?? 'unknown'}` : base;
  });
}

/** Indexes validated providers and models into one immutable snapshot. */
export function buildCatalogue(providers: readonly ProviderEntry[], drafts: readonly ModelDraft[], loadedAt: number): Catalogue {
  const assembly = new CatalogueAssembly(new Map(providers.map((provider) => [provider.slug, provider])), loadedAt);
  const familyNames = namedFamilies(drafts);
  for (const draft of drafts) {
    const ids = endpointIds(draft.id, draft.endpoints);
    const entries = draft.endpoints.map((endpoint, index): EndpointEntry => ({ id: ids[index] ?? '', ...endpoint }));
    const familyName = draft.family === null ? null : familyNames.get(draft.family) ?? draft.family;
    assembly.add({ ...draft, familyName, endpoints: entries });
  }
  return assembly.finish();
}

/**
 * The maps of a snapshot, filled one model entry at a time, so a catalogue handed over in batches
 * is indexed batch by batch, the same way a file read at once is.
 */
export class CatalogueAssembly {
  readonly #models = new Map<string, ModelEntry>();
  readonly #endpoints = new Map<string, EndpointEntry>();
  readonly #families = new Map<string, string[]>();

  constructor(
    readonly providers: ReadonlyMap<string, ProviderEntry>,
    private readonly loadedAt: number,
  ) {}

  add(model: ModelEntry): void {
    this.#models.set(model.id, model);
    for (const endpoint of model.endpoints) this.#endpoints.set(endpoint.id, endpoint);
    if (model.family === null) return;
    const members = this.#families.get(model.family);
    if (members) members.push(model.id);
    else this.#families.set(model.family, [model.id]);
  }

  finish(): Catalogue {
    return { providers: this.providers, models: this.#models, endpoints: this.#endpoints, families: this.#families, loadedAt: this.loadedAt };
  }
}

/** Each family's display name: the first name a model of the family gives it. */
function namedFamilies(drafts: readonly ModelDraft[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const draft of drafts) {
    if (draft.family !== null && draft.familyName !== null && !names.has(draft.family)) names.set(draft.family, draft.familyName);
  }
  return names;
}

/** The figures `catalogue check` reports. */
export function catalogueCounts(catalogue: Catalogue): { providers: number; models: number; endpoints: number } {
  return { providers: catalogue.providers.size, models: catalogue.models.size, endpoints: catalogue.endpoints.size };
}
