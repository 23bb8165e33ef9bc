/** Longest callback URL accepted, in characters. */
export const MAX_CALLBACK_URL_LENGTH = 2048;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An application's callback, checked: where approval and decline send the browser back. */
export interface Callback {
  url: URL;
  /** `scheme://host[:port]`: what the page shows, what the key is named after. */
  origin: string;
  /** On this machine (localhost, 127.0.0.1, [::1]): the code is shown on the page instead. */
  loopback: boolean;
}

/**
 * Reads a callback URL: `https:` anywhere, or `http:` on a loopback host only; no credentials, no
 * fragment. Anything else (`javascript:`, `data:`, a relative or protocol-relative URL, plain
 * `http:` to another machine) is refused with the reason, so no approval ever sends the browser
 * somewhere it should not go.
 */
export function readCallback(value: string): Callback | { problem: string } {
  if (value === '') return { problem: 'is required' };
  if (value.length > MAX_CALLBACK_URL_LENGTH) return { problem: `must be at most ${MAX_CALLBACK_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: 'must be an absolute https URL (or http on localhost)' };
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    return { problem: 'must be an https URL, or an http URL on localhost, 127.0.0.1 or [::1]' };
  }
  if (url.username !== '' || url.password !== '') return { problem: 'must not carry a user name or password' };
  if (url.hash !== '' || value.includes('#')) return { problem: 'must not carry a fragment' };
  return { url, origin: url.origin, loopback };
}

/** The callback with `params` added to its own query (which is kept). */
export function callbackWith(callback: Callback, params: Record<string, string>): string {
  const url = new URL(callback.url);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}
