import { countTokens } from 'gpt-tokenizer';
import { isContentEvent, type CoreEvent, type CoreUsage } from '../../core/events.js';
import type { GenerationOutcome } from '../../core/accounting.js';

/**
 * Watches a committed stream for what accounting needs: the reported usage and finish, and the
 * output actually sent, so a stream cut short is billed for the tokens it really generated.
 */
export class OutputMeter {
  private output = '';

  isContent(event: CoreEvent): boolean {
    return isContentEvent(event);
  }

  observe(event: CoreEvent, outcome: GenerationOutcome): void {
    switch (event.type) {
      case 'text.delta':
      case 'reasoning.delta':
      case 'refusal.delta':
        this.output += event.text;
        return;
      case 'tool.delta':
        this.output += event.args;
        return;
      case 'tool.start':
        this.output += event.name;
        return;
      case 'usage':
        outcome.usage = event.usage;
        return;
      case 'finish':
        outcome.finishReason = event.reason;
        outcome.nativeFinishReason = event.raw;
        return;
      case 'meta':
        if (event.upstreamId) outcome.upstreamId = event.upstreamId;
        return;
      default:
        return;
    }
  }

  /**
   * Usage for a stream that ended early: what the endpoint reported if it did, else our own count
   * of the output sent and the prompt estimate. Nothing produced means nothing charged.
   */
  usageAfterCut(reported: CoreUsage | undefined, promptEstimate: number): CoreUsage | undefined {
    if (reported?.completionTokens !== undefined) return reported;
    if (this.output.length === 0) return undefined;
    return { promptTokens: reported?.promptTokens ?? promptEstimate, completionTokens: countTokens(this.output) };
  }
}
