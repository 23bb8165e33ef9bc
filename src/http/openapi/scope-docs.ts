import type { ScopeName } from '../scopes.js';

/** How a caller authenticates, per kind of key (spec 02 Authentication; auth.ts reads both headers). */
export const SECURITY_SCHEMES = {
  inferenceKey: { type: 'http', scheme: 'bearer', description: 'An inference key: `Authorization: Bearer sk-svc-v1-…`' },
  inferenceKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The same inference key in `x-api-key`, as Anthropic clients send it' },
  managementKey: { type: 'http', scheme: 'bearer', description: 'A management key: it only manages keys' },
} as const;

type SecurityRequirement = Partial<Record<keyof typeof SECURITY_SCHEMES, readonly string[]>>;

interface ScopeDocs {
  security: readonly SecurityRequirement[];
  /** What the scope's guard can refuse a request with, on every route of the scope. */
  errors: readonly number[];
}

/**
 * What each scope's guard means for the document: the keys it takes (either header, where two are
 * listed), and its refusals — the key, the rate limit, a restart, a fault.
 */
export const SCOPE_DOCS: Record<ScopeName, ScopeDocs> = {
  public: { security: [], errors: [429, 500, 503] },
  key: { security: [{ inferenceKey: [] }, { inferenceKeyHeader: [] }], errors: [401, 429, 500, 503] },
  management: { security: [{ managementKey: [] }], errors: [401, 429, 500, 503] },
};
