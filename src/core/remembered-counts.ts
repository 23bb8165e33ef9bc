/**
 * Token counts of the longer texts seen lately, so that a text sent again is not tokenized again.
 * Agents resend most of a request with every turn: the system prompt, the tool schemas and the
 * conversation so far, only the last turn new. A count is a pure function of the text and of the
 * share of the tokenizing budget it was made with, so a remembered one is exactly what counting
 * again would give.
 *
 * Bounded by the length of the texts it keeps, the oldest forgotten first. A lookup of a long text
 * compares it once with a remembered one of the same length (a few µs per 100 KB, against about
 * 1 ms to tokenize it).
 */
export class RememberedCounts<Count> {
  readonly #counts = new Map<string, Count>();
  #units = 0;

  /**
   * @param maxUnits UTF-16 code units of the texts kept, in all
   * @param minUnits texts shorter than this are not kept: they cost little to count
   */
  constructor(
    private readonly maxUnits: number,
    private readonly minUnits: number,
  ) {}

  get(text: string): Count | undefined {
    return text.length < this.minUnits ? undefined : this.#counts.get(text);
  }

  set(text: string, count: Count): void {
    if (text.length < this.minUnits || text.length > this.maxUnits / 4) return;
    if (!this.#counts.has(text)) this.#units += text.length;
    this.#counts.set(text, count);
    for (const oldest of this.#counts.keys()) {
      if (this.#units <= this.maxUnits) break;
      this.#counts.delete(oldest);
      this.#units -= oldest.length;
    }
  }
}
