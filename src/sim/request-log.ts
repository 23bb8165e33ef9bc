/** One request as the simulator received it. */
export interface RecordedRequest {
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body; the raw text when it was not JSON; null when there was none. */
  body: unknown;
  receivedAt: number;
}

export const REQUEST_LOG_CAPACITY = 200;

/** Fixed-size ring of the most recent requests, so memory stays flat under load. */
export class RequestLog {
  private readonly slots: Array<RecordedRequest | undefined>;
  private next = 0;
  private size = 0;

  constructor(private readonly capacity: number = REQUEST_LOG_CAPACITY) {
    this.slots = new Array<RecordedRequest | undefined>(capacity);
  }

  add(entry: RecordedRequest): void {
    this.slots[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
    if (this.size < this.capacity) this.size += 1;
  }

  /** Oldest first, newest last. */
  list(): RecordedRequest[] {
    const out: RecordedRequest[] = [];
    const start = (this.next - this.size + this.capacity) % this.capacity;
    for (let i = 0; i < this.size; i += 1) {
      const entry = this.slots[(start + i) % this.capacity];
      if (entry) out.push(entry);
    }
    return out;
  }

  clear(): void {
    this.slots.fill(undefined);
    this.next = 0;
    this.size = 0;
  }
}
