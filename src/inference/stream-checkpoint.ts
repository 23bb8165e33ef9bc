import type { GenerationCheckpoints, Hold } from '../billing/types.js';
import type { AnswerMeter } from '../core/answer-meter.js';

/**
 * Checkpoints one committed stream as it is delivered: after a part reached the caller, once both
 * the cadence's interval and its tokens have passed since the last checkpoint (the first counts
 * from the commit), so a fast stream writes about once per interval and a slow one once per
 * `tokens`. Between checkpoints a part costs one clock read.
 */
export class StreamCheckpoint {
  #lastAt: number;
  #lastTokens = 0;

  constructor(
    private readonly checkpoints: GenerationCheckpoints,
    private readonly stream: { hold: Hold; endpointId: string; meter: AnswerMeter },
    committedAt: number = Date.now(),
  ) {
    this.#lastAt = committedAt;
  }

  /**
   * The stream committed: its first checkpoint names the serving endpoint with nothing delivered
   * yet, so a crash from the first byte on bills at least the prompt (spec 01: output streamed
   * before a failure is billed). Resolves once written (one write joining the others' group commit
   * on SQLite); the stream opens after it.
   */
  committed(): Promise<void> {
    return this.checkpoints.committed(this.stream.hold, this.stream.endpointId);
  }

  /** Called once a part was handed to the caller. */
  delivered(now: number = Date.now()): void {
    const { cadence } = this.checkpoints;
    if (now - this.#lastAt < cadence.intervalMs) return;
    const { meter } = this.stream;
    const tokens = meter.producedTokens();
    if (tokens - this.#lastTokens < cadence.tokens) return;
    this.#lastAt = now;
    this.#lastTokens = tokens;
    const promptTokens = meter.usage?.promptTokens;
    void this.checkpoints.record(this.stream.hold.generationId, {
      endpointId: this.stream.endpointId,
      completionTokens: tokens,
      ...(promptTokens !== undefined && { promptTokens }),
    });
  }
}
