import type { ScopeName } from '../scopes.js';
import type { ErrorStatus } from './error-replies.js';
import type { HeaderDoc } from './response-doc.js';

/** How a caller authenticates, per kind of key (spec 02 Authentication; auth.ts reads both headers). */
export const SECURITY_SCHEMES = {
  inferenceKey: { type: 'http', scheme: 'bearer', description: 'An inference key: `Authorization: Bearer sk-svc-v1-…`' },
  inferenceKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The same inference key in `x-api-key`, as Anthropic clients send it' },
  managementKey: { type: 'http', scheme: 'bearer', description: 'A management key: it only manages keys' },
} as const;

type SecurityRequirement = Partial<Record<keyof typeof SECURITY_SCHEMES, readonly string[]>>;

export interface ScopeDocs {
  security: readonly SecurityRequirement[];
  /** What the scope's guard can refuse a request with, on every route of the scope. */
  errors: readonly ErrorStatus[];
  /** Headers the guard sets on every request it admits. */
  headers: Record<string, HeaderDoc>;
}

/** Every scope counts its requests (rate-limit.ts), against the key or the client address. */
const RATE_LIMIT_HEADERS: Record<string, HeaderDoc> = {
  'X-RateLimit-Limit': { description: 'Requests allowed in the window', type: 'integer' },
  'X-RateLimit-Remaining': { description: 'Requests left in the window', type: 'integer' },
  'X-RateLimit-Reset': { description: 'When the window resets, Unix seconds', type: 'integer' },
};

/**
 * What each scope's guard means for the document: the keys it takes (either header, where two are
 * listed), its refusals — the key, the rate limit, a restart, a fault — and its rate-limit headers.
 */
export const SCOPE_DOCS: Record<ScopeName, ScopeDocs> = {
  public: { security: [], errors: [429, 500, 503], headers: RATE_LIMIT_HEADERS },
  key: { security: [{ inferenceKey: [] }, { inferenceKeyHeader: [] }], errors: [401, 429, 500, 503], headers: RATE_LIMIT_HEADERS },
  management: { security: [{ managementKey: [] }], errors: [401, 429, 500, 503], headers: RATE_LIMIT_HEADERS },
  operator: { security: [], errors: [500], headers: {} },
  /** The web pages are not part of the API document (their routes are hidden). */
  web: { security: [], errors: [], headers: {} },
};
