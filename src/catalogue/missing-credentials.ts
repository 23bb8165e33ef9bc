import { fieldPath, itemPath } from './problem-list.js';
import type { Catalogue } from './types.js';

/** A provider whose `api_key_env` names a variable the environment does not set. */
export interface MissingCredential {
  /** Where it is declared, e.g. `providers[0].api_key_env`. */
  path: string;
  provider: string;
  variable: string;
}

/**
 * The providers whose credential variable is unset or empty: their requests would go out without
 * a credential. Not a problem of the file (the environment is the machine's), so a warning, except
 * under `catalogue check --strict`.
 */
export function missingCredentials(catalogue: Catalogue, env: NodeJS.ProcessEnv): MissingCredential[] {
  const missing: MissingCredential[] = [];
  [...catalogue.providers.values()].forEach((provider, index) => {
    const variable = provider.apiKeyEnv;
    if (variable === undefined || (env[variable] ?? '') !== '') return;
    missing.push({ path: fieldPath(itemPath('providers', index), 'api_key_env'), provider: provider.slug, variable });
  });
  return missing;
}

/** The warning's text, without its path. */
export function describeMissingCredential(missing: MissingCredential): string {
  return `${missing.variable} is not set: requests to provider ${missing.provider} carry no credential`;
}
