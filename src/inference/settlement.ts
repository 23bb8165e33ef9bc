import { settleGeneration, type GenerationOutcome, type OutcomePricer } from '../billing/settlement.js';
import { GatewayError } from '../core/errors.js';
import type { Hold } from '../billing/types.js';
import type { Services } from '../http/services.js';

/** An admitted request whose charge could not be recorded (spec 02: 503 `server`, repeat). */
export function unrecordedError(): GatewayError {
  return new GatewayError('server_unavailable', 'The answer could not be recorded; repeat the request');
}

/**
 * Settles the generation. When the ledger cannot (database unreachable) the failure is logged and
 * the charge is undefined: the reply then ends without its usage, and the hold expires and is
 * released by the reconciler, so nothing is charged twice.
 */
export async function settleOrLog(services: Services, hold: Hold, outcome: GenerationOutcome, price?: OutcomePricer): Promise<number | undefined> {
  try {
    return await settleGeneration(services.ledger, hold, outcome, price);
  } catch (error) {
    services.logger.error({ err: error, generation: outcome.generationId }, 'settlement failed');
    return undefined;
  }
}
