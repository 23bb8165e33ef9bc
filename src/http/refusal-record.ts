import type { FastifyRequest } from 'fastify';
import type { ErrorCode, GatewayError } from '../core/errors.js';
import type { GenerationRecord, Ledger } from '../billing/types.js';
import { generationRecord, type GenerationOwner } from '../billing/generation-record.js';
import { isPlainObject } from '../core/plain-object.js';
import { readAttribution } from '../dialects/shared/request-headers.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once credit is held: from then on the pipeline settles or releases, writing the record. */
    creditHeld?: boolean;
  }
}

/** Refusals too cheap to record: no account (401) or a key over its rate (429, which must stay cheap). */
const UNRECORDED: ReadonlySet<ErrorCode> = new Set(['authentication', 'rate_limit_exceeded']);

export type RefusalRecorder = (request: FastifyRequest, error: GatewayError) => Promise<void>;

/**
 * Records an authenticated inference request refused before it held credit (bad body, unknown
 * model, no route, no credit, …) as an error generation costing nothing, under its X-Generation-Id,
 * so the id on the refusal reads back through `GET /generation` like any failure (spec 02 Errors 6).
 */
export function refusalRecorder(ledger: Ledger): RefusalRecorder {
  return async (request, error) => {
    const key = request.key;
    const id = request.generationId;
    if (!key || id === undefined || request.creditHeld || UNRECORDED.has(error.code)) return;
    try {
      await ledger.recordRefusal(refusalRecord(request, error, { id, accountId: key.accountId, workspaceId: key.workspaceId, keyId: key.keyId }));
    } catch (failure) {
      request.log.error({ err: failure, generation: id }, 'refusal could not be recorded');
    }
  };
}

function refusalRecord(request: FastifyRequest, error: GatewayError, owner: GenerationOwner & { id: string }): GenerationRecord {
  const body = isPlainObject(request.body) ? request.body : {};
  return generationRecord({
    generationId: owner.id,
    owner,
    asked: {
      model: askedModel(body),
      streamed: body.stream === true,
      attribution: readAttribution(request.headers),
      metadata: isPlainObject(body.metadata) ? body.metadata : null,
    },
    startedAt: Date.now(),
    error,
    cancelled: error.code === 'client_timeout',
    estimatedPromptTokens: 0,
    cost: 0n,
    costLines: [],
  });
}

/** The model the body asked for first, as sent; '' when it named none. */
export function askedModel(body: Record<string, unknown>): string {
  if (typeof body.model === 'string') return body.model;
  const first: unknown = Array.isArray(body.models) ? body.models[0] : undefined;
  return typeof first === 'string' ? first : '';
}
