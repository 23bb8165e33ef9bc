import { invalidRequest } from '../../core/errors.js';
import type { Attribution } from '../../core/request.js';

export type HeaderBag = Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** App attribution: a non-empty `X-Partner-Title` wins over `X-Title`; `HTTP-Referer` is the app URL. */
export function readAttribution(headers: HeaderBag): Attribution {
  const attribution: Attribution = {};
  const title = header(headers, 'x-partner-title') || header(headers, 'x-title');
  const referer = header(headers, 'http-referer');
  if (title) attribution.title = title;
  if (referer) attribution.referer = referer;
  return attribution;
}

/** The `X-Session-Id` header, refused past 256 characters. */
export function readSessionHeader(headers: HeaderBag): string | undefined {
  const value = header(headers, 'x-session-id');
  if (value !== undefined && value.length > 256) throw invalidRequest('X-Session-Id', 'at most 256 characters');
  return value || undefined;
}

/** `model` followed by the fallbacks of `models`, without repeats. */
export function modelChain(model: string | undefined, models: string[] | undefined): string[] {
  const chain = [...(model ? [model] : []), ...(models ?? [])];
  if (chain.length === 0) throw invalidRequest('model', 'required unless models is given');
  return [...new Set(chain)];
}
