/** What a start that failed half-way had opened, closed again in reverse order. */
export class Rollback {
  readonly #steps: (() => Promise<void> | void)[] = [];

  push(step: () => Promise<void> | void): void {
    this.#steps.push(step);
  }

  /** Runs every step, last pushed first; a step that fails does not stop the others. */
  async run(): Promise<void> {
    for (const step of this.#steps.reverse()) await Promise.resolve().then(step).catch(() => undefined);
  }
}
