import type { CoreEvent, CoreUsage, FinishReason } from './events.js';
import { measureMedia } from './media-measure.js';
import { countText } from './token-estimate.js';

/** Past this many characters without a word boundary the output is counted anyway (CJK text, long arguments). */
const UNBROKEN_COUNT_CHARS = 4096;

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
  /** How much of `output` `producedTokens` counted already, and its tokens. */
  private counted = { length: 0, tokens: 0 };
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

  /**
   * Tokens of the output produced so far, counted with the prompt tokenizer a piece at a time:
   * each call counts only the text since the previous one, up to its last space followed by a
   * non-space (where the tokenizer always starts a new piece, so the pieces add up to the count of
   * the whole), so checkpointing a long stream costs time linear in its length. What follows waits
   * for the next call.
   */
  producedTokens(): number {
    const { output, counted } = this;
    let end = output.length - 2;
    while (end > counted.length && !(output.charCodeAt(end) === SPACE && !isWhitespace(output.charCodeAt(end + 1)))) end -= 1;
    if (end <= counted.length && output.length - counted.length >= UNBROKEN_COUNT_CHARS) end = output.length;
    if (end > counted.length) {
      this.counted = { length: end, tokens: counted.tokens + countText(output.slice(counted.length, end)) };
    }
    return this.counted.tokens;
  }

  /** The usage to bill: as reported (or, for an answer cut short, counted), plus measured media. */
  async billedUsage(options: { cutShort: boolean; promptEstimate: number }): Promise<CoreUsage | undefined> {
    const counted = options.cutShort ? this.countedUsage(options.promptEstimate) : this.usage;
    // most answers carry no media: nothing to wait for
    if (this.images.length === 0 && !this.audio) return counted && { ...counted };
    const media = await measureMedia(this.images, this.audio);
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

const SPACE = 32;

/** Space, tab, line feed, vertical tab, form feed, carriage return. */
function isWhitespace(code: number): boolean {
  return code === SPACE || (code >= 9 && code <= 13);
}
