import { generationRecord, type GenerationOwner } from '../../src/billing/generation-record.js';
import type { Units } from '../../src/billing/money.js';
import type { HoldRequest } from '../../src/billing/types.js';

/** A hold for `generationId` with the pending generation the pipeline writes with it. */
export function holdRequest(owner: GenerationOwner, generationId: string, amount: Units, options: { startedAt?: number } = {}): HoldRequest {
  return {
    ...owner,
    generationId,
    amount,
    pending: generationRecord({
      generationId,
      owner,
      asked: { model: 'acme/chat', streamed: true, attribution: {}, metadata: null },
      startedAt: options.startedAt ?? Date.now(),
      estimatedPromptTokens: 11,
      pending: true,
      cost: 0n,
      costLines: [],
    }),
  };
}
