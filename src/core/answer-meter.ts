import type { CoreEvent, CoreUsage, FinishReason } from './events.js';
import { measureMedia } from './media-measure.js';
import { countText } from './token-estimate.js';

/**
 * Watches an answer for what accounting needs: the reported usage and finish, the generated media
 * (measured from its bytes), and the output actually produced, so an answer cut short is billed
 * for the tokens it really generated.
 */
export class AnswerMeter {
  usage: CoreUsage | undefined;
  finish: FinishReason | undefined;
  nativeFinish: string | null = null;
  upstreamId: string | undefined;
  firstContentAt: number | undefined;
  private output = '';
  private readonly images: string[] = [];
  private audio = '';

  observe(event: CoreEvent): void {
    switch (event.type) {
      case 'text.delta':
      case 'reasoning.delta':
      case 'refusal.delta':
        this.produced(event.text);
        return;
      case 'tool.start':
        this.produced(event.name);
        return;
      case 'tool.delta':
        this.produced(event.args);
        return;
      case 'image':
        this.images.push(event.url);
        this.produced('');
        return;
      case 'audio.delta':
        this.audio += event.data ?? '';
        this.produced(event.transcript ?? '');
        return;
      case 'usage':
        this.usage = event.usage;
        return;
      case 'finish':
        this.finish = event.reason;
        this.nativeFinish = event.raw;
        return;
      case 'meta':
        if (event.upstreamId) this.upstreamId = event.upstreamId;
        return;
      default:
        return;
    }
  }

  /** The usage to bill: as reported (or, for an answer cut short, counted), plus measured media. */
  async billedUsage(options: { cutShort: boolean; promptEstimate: number }): Promise<CoreUsage | undefined> {
    const counted = options.cutShort ? this.countedUsage(options.promptEstimate) : this.usage;
    const media = await measureMedia(this.images, this.audio || undefined);
    if (!counted && Object.keys(media).length === 0) return undefined;
    return { ...counted, ...media };
  }

  private countedUsage(promptEstimate: number): CoreUsage | undefined {
    if (this.usage?.completionTokens !== undefined) return this.usage;
    if (this.firstContentAt === undefined) return undefined;
    return { promptTokens: this.usage?.promptTokens ?? promptEstimate, completionTokens: countText(this.output) };
  }

  private produced(text: string): void {
    if (this.firstContentAt === undefined) this.firstContentAt = Date.now();
    this.output += text;
  }
}
