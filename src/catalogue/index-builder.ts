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
  const models = new Map<string, ModelEntry>();
  const endpoints = new Map<string, EndpointEntry>();
  const families = new Map<string, string[]>();
  const familyNames = namedFamilies(drafts);
  for (const draft of drafts) {
    const ids = endpointIds(draft.id, draft.endpoints);
    const entries = draft.endpoints.map((endpoint, index): EndpointEntry => ({ id: ids[index] ?? '', ...endpoint }));
    const familyName = draft.family === null ? null : familyNames.get(draft.family) ?? draft.family;
    const model: ModelEntry = { ...draft, familyName, endpoints: entries };
    models.set(model.id, model);
    for (const endpoint of entries) endpoints.set(endpoint.id, endpoint);
    if (model.family !== null) families.set(model.family, [...(families.get(model.family) ?? []), model.id]);
  }
  return {
    providers: new Map(providers.map((provider) => [provider.slug, provider])),
    models,
    endpoints,
    families,
    loadedAt,
  };
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
