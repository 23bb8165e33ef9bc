import type { KeyContext } from '../accounts/types.js';
import { GatewayError, INTERNAL_ERROR_MESSAGE, type ErrorCode } from '../core/errors.js';
import type { Ledger } from '../billing/types.js';
import { generationRecord } from '../billing/generation-record.js';
import { isPlainObject } from '../core/plain-object.js';
import { readAttribution, type HeaderBag } from '../dialects/shared/request-headers.js';
import { isStoreUnreachable } from '../store/store-unreachable.js';
import type { InferenceServices } from './services.js';

/** Refusals too cheap to record: no account (401) or a key over its rate (429, which must stay cheap). */
const UNRECORDED: ReadonlySet<ErrorCode> = new Set(['authentication', 'rate_limit_exceeded']);

/** A request refused before it held credit, as it was asked. */
export interface Refusal {
  key: KeyContext;
  generationId: string;
  /** The body as received (what it asked for is read from it, whatever its shape). */
  body: unknown;
  headers: HeaderBag;
  /** The refusal; anything else is a fault of the service, recorded as the 500 it answers. */
  error: unknown;
}

/**
 * Records a request refused before it held credit (bad body, unknown model, no route, no credit, …)
 * as an error generation costing nothing, under its generation id, so the id on the refusal reads
 * back through `GET /generation` like any failure (spec 02 Errors 6). A failure to record is logged.
 */
export async function recordRefusal(services: { ledger: Ledger; logger: Pick<InferenceServices['logger'], 'error'> }, refusal: Refusal): Promise<void> {
  // the database itself did not answer: nothing can be recorded, and trying would only delay the 503
  if (isStoreUnreachable(refusal.error)) return;
  const error = refusal.error instanceof GatewayError ? refusal.error : new GatewayError('server', INTERNAL_ERROR_MESSAGE);
  if (UNRECORDED.has(error.code)) return;
  const { key, generationId: id } = refusal;
  const body = isPlainObject(refusal.body) ? refusal.body : {};
  try {
    await services.ledger.recordRefusal(generationRecord({
      generationId: id,
      owner: key,
      asked: {
        model: askedModel(body),
        streamed: body.stream === true,
        attribution: readAttribution(refusal.headers),
        metadata: isPlainObject(body.metadata) ? body.metadata : null,
      },
      startedAt: Date.now(),
      error,
      cancelled: error.code === 'client_timeout',
      estimatedPromptTokens: 0,
      cost: 0n,
      costLines: [],
    }));
  } catch (failure) {
    services.logger.error({ err: failure, generation: id }, 'refusal could not be recorded');
  }
}

/** The model the body asked for first, as sent; '' when it named none. */
export function askedModel(body: Record<string, unknown>): string {
  if (typeof body.model === 'string') return body.model;
  const first: unknown = Array.isArray(body.models) ? body.models[0] : undefined;
  return typeof first === 'string' ? first : '';
}
