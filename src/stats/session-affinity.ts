const DEFAULT_CAPACITY = 100_000;

/**
 * Which endpoint served each conversation, so later turns with the same session id prefer it.
 * Bounded: the least recently used sessions are forgotten first.
 */
export class SessionAffinity {
  private readonly served = new Map<string, string>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  remember(sessionId: string, endpointId: string): void {
    this.served.delete(sessionId);
    this.served.set(sessionId, endpointId);
    if (this.served.size > this.capacity) {
      const oldest = this.served.keys().next().value;
      if (oldest !== undefined) this.served.delete(oldest);
    }
  }

  endpointFor(sessionId: string): string | undefined {
    return this.served.get(sessionId);
  }
}
