import type { TSchema } from '@sinclair/typebox';
import { ErrorEnvelopeSchema } from '../../core/error-envelope-schema.js';
import type { HeaderDoc, ResponseDoc } from './response-doc.js';

/** When each status is answered (spec 02 Errors; spec 01 for the inference routes). */
const ERROR_DESCRIPTIONS = {
  400: 'Invalid request: a missing field, wrong type, out-of-range value or malformed JSON (`metadata.field` names it); or the provider rejected the request',
  401: 'Key missing, malformed, unknown, revoked or expired (one identical answer)',
  402: 'Spendable balance below the credit hold, or a spend limit reached',
  404: 'No such model, route or record',
  408: 'The request did not arrive in time, or the caller left before it finished',
  409: 'The record is in a state that refuses the change (a batch that already ended cannot be cancelled)',
  413: 'Body over the limit, or the provider rejected it as too large',
  422: 'The reply carried output this dialect cannot carry (generated audio)',
  429: 'Rate limited for the key or address (`Retry-After` says when to retry), or the provider is rate limiting',
  500: 'Fault in the service; message always `Internal server error`',
  502: 'Every eligible endpoint failed',
  503: 'No live endpoint satisfies the request (`no_route`, with `metadata.rejections`), the instance is restarting (`Retry-After`, `X-Should-Retry: true`), or the key store sealing stored files cannot be reached (`server`, `Retry-After`; nothing was stored)',
  504: 'The provider accepted and then stopped answering',
} as const satisfies Record<number, string>;

/** A status the document describes as an error. */
export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

const RETRY_AFTER: Record<string, HeaderDoc> = {
  'Retry-After': { description: 'Seconds to wait before repeating', type: 'integer', minimum: 0 },
};

/** Statuses a route reading a JSON body can refuse it with. */
export const BODY_REFUSALS: readonly ErrorStatus[] = [400, 408, 413];

/** Statuses an inference route can answer after its body was read: routing, credit, upstream. */
export const INFERENCE_REFUSALS: readonly ErrorStatus[] = [...BODY_REFUSALS, 402, 404, 429, 502, 503, 504];

/** The error responses of `statuses`, in `body` (default the shared envelope). */
export function errorResponses(statuses: Iterable<ErrorStatus>, body: TSchema = ErrorEnvelopeSchema): Record<number, ResponseDoc> {
  const responses: Record<number, ResponseDoc> = {};
  for (const status of new Set(statuses)) {
    responses[status] = {
      description: ERROR_DESCRIPTIONS[status],
      ...((status === 429 || status === 503) && { headers: RETRY_AFTER }),
      content: { 'application/json': { schema: body } },
    };
  }
  return responses;
}
