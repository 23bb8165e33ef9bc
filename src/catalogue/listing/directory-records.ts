import type { Catalogue } from '../types.js';
import type { ListingSnapshot } from './listing-snapshot.js';

/**
 * `GET /providers` records, by slug: every declared provider with the pages and places the hosted
 * marketplace's clients read (`privacy_policy_url`, `terms_of_service_url`, `status_page_url`,
 * `headquarters`, `datacenters`), its stable `id`, its data policy and compliance, and how many live
 * endpoints it serves.
 */
export function providerRecords(catalogue: Catalogue, snapshot: ListingSnapshot): Record<string, unknown>[] {
  const served = new Map<string, number>();
  for (const listed of snapshot.models) {
    for (const endpoint of listed.live) served.set(endpoint.provider.slug, (served.get(endpoint.provider.slug) ?? 0) + 1);
  }
  return [...catalogue.providers.values()]
    .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    .map((provider) => ({
      id: provider.id,
      slug: provider.slug,
      name: provider.name,
      privacy_policy_url: provider.links.privacyPolicyUrl,
      terms_of_service_url: provider.links.termsOfServiceUrl,
      status_page_url: provider.links.statusPageUrl,
      headquarters: provider.headquarters,
      datacenters: provider.datacenters,
      data_policy: { training: provider.dataPolicy.training, retention_days: provider.dataPolicy.retentionDays },
      compliance: { zdr: provider.compliance.zdr, zdr_status: provider.compliance.zdrStatus, hipaa: provider.compliance.hipaa },
      endpoint_count: served.get(provider.slug) ?? 0,
    }));
}

/** `GET /families` records, by id: each family with at least one served model, its models newest first. */
export function familyRecords(snapshot: ListingSnapshot): Record<string, unknown>[] {
  const families = new Map<string, { id: string; name: string; models: string[] }>();
  for (const { model } of snapshot.models) {
    if (model.family === null) continue;
    const family = families.get(model.family) ?? { id: model.family, name: model.familyName ?? model.family, models: [] };
    family.models.push(model.id);
    families.set(model.family, family);
  }
  return [...families.values()]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((family) => ({ id: family.id, name: family.name, model_count: family.models.length, models: family.models }));
}

/**
 * `GET /stats/public`: what the catalogue serves right now: served models, their live endpoints
 * (and how many of them are healthy), the providers and families serving, and when the catalogue
 * was loaded.
 */
export function publicStats(snapshot: ListingSnapshot, loadedAt: number, isHealthy: (endpointId: string) => boolean): Record<string, unknown> {
  const endpoints = snapshot.models.flatMap((listed) => listed.live);
  return {
    models: snapshot.models.length,
    endpoints: endpoints.length,
    endpoints_healthy: endpoints.filter((endpoint) => isHealthy(endpoint.id)).length,
    providers: new Set(endpoints.map((endpoint) => endpoint.provider.slug)).size,
    families: new Set(snapshot.models.flatMap(({ model }) => (model.family === null ? [] : [model.family]))).size,
    catalogue_loaded_at: new Date(loadedAt).toISOString(),
  };
}
