import { createHash } from 'node:crypto';
import type { EndpointEntry } from './types.js';

const revisions = new WeakMap<EndpointEntry, string>();

/**
 * What identifies what an endpoint serves, for its check verdicts: a digest of where it is reached
 * (provider slug, wire, base URL), the upstream model and every declaration a check verifies or a
 * request is planned by (parameters, reasoning, modalities, sources, containers, dispatch, the
 * ceiling's name, quantization). Prices, the display name and `disabled` are left out: changing
 * them changes nothing the endpoint answers. Computed once per catalogue load and endpoint.
 */
export function servingRevision(endpoint: EndpointEntry): string {
  const known = revisions.get(endpoint);
  if (known !== undefined) return known;
  const served = {
    provider: endpoint.provider.slug,
    api: endpoint.provider.api,
    baseUrl: endpoint.provider.baseUrl,
    upstreamModel: endpoint.upstreamModel,
    quantization: endpoint.quantization,
    maxTokensParameter: endpoint.maxTokensParameter,
    supportedParameters: [...endpoint.supportedParameters].sort(),
    reasoning: endpoint.reasoning,
    inputModalities: endpoint.inputModalities,
    outputModalities: endpoint.outputModalities,
    inputSources: endpoint.inputSources,
    inputContainers: endpoint.inputContainers,
    toolCallDispatch: endpoint.toolCallDispatch,
    textCompletions: endpoint.textCompletions,
  };
  const revision = createHash('sha256').update(canonicalJson(served)).digest('hex').slice(0, 16);
  revisions.set(endpoint, revision);
  return revision;
}

/** JSON with object keys sorted, so equal declarations give equal text whatever order they were written in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, member]) => member !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
