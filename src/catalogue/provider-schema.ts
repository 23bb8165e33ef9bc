import { MappingReader } from './mapping-reader.js';
import type { ProblemList } from './problem-list.js';
import type { ProviderEntry, UpstreamApi } from './types.js';

export const UPSTREAM_APIS = ['openai', 'anthropic', 'cohere'] as const satisfies readonly UpstreamApi[];

const PROVIDER_FIELDS = [
  'slug', 'id', 'name', 'api', 'base_url', 'api_key_env', 'data_policy', 'compliance', 'datacenters', 'headquarters',
  'privacy_policy_url', 'terms_of_service_url', 'status_page_url',
];
const DATA_POLICY_FIELDS = ['training', 'retention_days'];
const COMPLIANCE_FIELDS = ['zdr', 'hipaa', 'zdr_status'];

export const PROVIDER_SLUG = /^[a-z0-9][a-z0-9._-]*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DATACENTER = /^[A-Za-z0-9][A-Za-z0-9-]*$/;
const COUNTRY_CODE = /^[A-Z]{2}$/;

/** One `providers[i]` entry; null when it is not even a mapping. */
export function readProvider(value: unknown, path: string, problems: ProblemList): ProviderEntry | null {
  const fields = MappingReader.open(value, path, problems, PROVIDER_FIELDS);
  if (!fields) return null;
  const provider: ProviderEntry = {
    id: '',
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
    headquarters: fields.optionalString('headquarters', { pattern: COUNTRY_CODE, patternMessage: 'must be a two-letter country code' }),
    links: {
      privacyPolicyUrl: readOptionalUrl(fields, 'privacy_policy_url'),
      termsOfServiceUrl: readOptionalUrl(fields, 'terms_of_service_url'),
      statusPageUrl: readOptionalUrl(fields, 'status_page_url'),
    },
  };
  provider.id = fields.optionalString('id', { pattern: PROVIDER_SLUG, patternMessage: 'must be lowercase letters, digits, ".", "_" or "-"' }) ?? provider.slug;
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
  checkHttpUrl(fields, 'base_url', text);
  return text.replace(/\/+$/, '');
}

/** A page of the provider's (policy, terms, status) shown by `GET /providers`; null when not written. */
function readOptionalUrl(fields: MappingReader, key: string): string | null {
  const text = fields.optionalString(key);
  if (text !== null) checkHttpUrl(fields, key, text);
  return text;
}

function checkHttpUrl(fields: MappingReader, key: string, text: string): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    fields.problem(key, 'must be an absolute URL');
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fields.problem(key, 'must be an http or https URL');
}

function readDataPolicy(fields: MappingReader): ProviderEntry['dataPolicy'] {
  const policy = fields.mapping('data_policy', DATA_POLICY_FIELDS);
  if (!policy) return { training: false, retentionDays: null };
  return { training: policy.boolean('training'), retentionDays: policy.optionalInteger('retention_days', { min: 0 }) };
}

function readCompliance(fields: MappingReader): ProviderEntry['compliance'] {
  const compliance = fields.mapping('compliance', COMPLIANCE_FIELDS);
  if (!compliance) return { zdr: false, hipaa: false, zdrStatus: null };
  return { zdr: compliance.boolean('zdr'), hipaa: compliance.boolean('hipaa', false), zdrStatus: compliance.optionalString('zdr_status') };
}
