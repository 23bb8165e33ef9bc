import type { ProviderEntry } from '../catalogue/types.js';

/** JSON headers with the provider's credential as a bearer token, read from its `api_key_env`. */
export function bearerJsonHeaders(provider: ProviderEntry): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const credential = provider.apiKeyEnv ? process.env[provider.apiKeyEnv] : undefined;
  if (credential) headers.authorization = `Bearer ${credential}`;
  return headers;
}
