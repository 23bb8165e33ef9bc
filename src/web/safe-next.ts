const BASE = 'http://switchyard.invalid';

/** Where to go after signing in when nothing safe was asked for. */
export const DEFAULT_NEXT = '/dashboard';

/**
 * A `next` path that stays on this site: a path beginning with one `/` (never `//` or `/\`, which
 * browsers read as another host), with no scheme and no control characters, returned as path and
 * query only. Anything else gives the dashboard.
 */
export function safeNextPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 4096) return DEFAULT_NEXT;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return DEFAULT_NEXT;
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return DEFAULT_NEXT;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return DEFAULT_NEXT;
  }
  if (url.origin !== BASE) return DEFAULT_NEXT;
  return `${url.pathname}${url.search}`;
}
