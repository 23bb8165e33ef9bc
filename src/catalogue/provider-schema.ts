import { MappingReader } from './mapping-reader.js';
import type { ProblemList } from './problem-list.js';
import type { ProviderEntry, UpstreamApi } from './types.js';

export const UPSTREAM_APIS = ['openai', 'anthropic', 'cohere'] as const satisfies readonly UpstreamApi[];

const PROVIDER_FIELDS = ['slug', 'name', 'api', 'base_url', 'api_key_env', 'data_policy', 'compliance', 'datacenters'];
const DATA_POLICY_FIELDS = ['training', 'retention_days'];
const COMPLIANCE_FIELDS = ['zdr', 'hipaa'];

export const PROVIDER_SLUG = /^[a-z0-9][a-z0-9._-]*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DATACENTER = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

/** One `providers[i]` entry; null when it is not even a mapping. */
export function readProvider(value: unknown, path: string, problems: ProblemList): ProviderEntry | null {
  const fields = MappingReader.open(value, path, problems, PROVIDER_FIELDS);
  if (!fields) return null;
  const provider: ProviderEntry = {
    slug: fields.string('slug', {
      pattern: PROVIDER_SLUG,
      patternMessage: 'must be lowercase letters, digits, ".", "_" or "-"',
    }),
    name: fields.string('name'),
    api: fields.choice('api', UPSTREAM_APIS) ?? 'openai',
    baseUrl: readBaseUrl(fields),
    dataPolicy: readDataPolicy(fields),
    compliance: readCompliance(fields),
    datacenters: fields.stringList('datacenters', { fallback: [] }),
  };
  const apiKeyEnv = fields.optionalString('api_key_env', {
    pattern: ENV_NAME,
    patternMessage: 'must be an environment variable name',
  });
  if (apiKeyEnv !== null) provider.apiKeyEnv = apiKeyEnv;
  for (const [index, datacenter] of provider.datacenters.entries()) {
    if (!DATACENTER.test(datacenter)) problems.add(`${fields.at('datacenters')}[${index}]`, 'must be a country code or region');
  }
  return provider;
}

function readBaseUrl(fields: MappingReader): string {
  const text = fields.string('base_url');
  if (text === '') return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    fields.problem('base_url', 'must be an absolute URL');
    return text;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fields.problem('base_url', 'must be an http or https URL');
  return text.replace(/\/+$/, '');
}

function readDataPolicy(fields: MappingReader): ProviderEntry['dataPolicy'] {
  const policy = fields.mapping('data_policy', DATA_POLICY_FIELDS);
  if (!policy) return { training: false, retentionDays: null };
  return { training: policy.boolean('training'), retentionDays: policy.optionalInteger('retention_days', { min: 0 }) };
}

function readCompliance(fields: MappingReader): ProviderEntry['compliance'] {
  const compliance = fields.mapping('compliance', COMPLIANCE_FIELDS);
  if (!compliance) return { zdr: false, hipaa: false };
  return { zdr: compliance.boolean('zdr'), hipaa: compliance.boolean('hipaa', false) };
}
