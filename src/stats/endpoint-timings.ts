/** Samples kept per endpoint and figure; the oldest is overwritten, so memory stays bounded. */
const SAMPLE_LIMIT = 200;
/** Timings and throughput are null below this many samples (spec 02 limits). */
export const MIN_SAMPLES = 5;
/** Throughput samples need at least this many completion tokens. */
export const MIN_THROUGHPUT_TOKENS = 16;

class SampleRing {
  private readonly values: number[] = [];
  private next = 0;

  add(value: number): void {
    if (this.values.length < SAMPLE_LIMIT) this.values.push(value);
    else this.values[this.next] = value;
    this.next = (this.next + 1) % SAMPLE_LIMIT;
  }

  median(): number | null {
    if (this.values.length < MIN_SAMPLES) return null;
    const sorted = [...this.values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? null;
  }
}

/** Measured time to first token and throughput per endpoint, from the service's own streams. */
export class EndpointTimings {
  private readonly firstToken = new Map<string, SampleRing>();
  private readonly throughputs = new Map<string, SampleRing>();

  /** One finished stream: seconds to first token, and tokens per second after it where long enough. */
  recordStream(endpointId: string, sample: { ttftMs: number; completionTokens?: number; generationMs: number }): void {
    ring(this.firstToken, endpointId).add(sample.ttftMs / 1000);
    const tokens = sample.completionTokens ?? 0;
    const seconds = (sample.generationMs - sample.ttftMs) / 1000;
    if (tokens >= MIN_THROUGHPUT_TOKENS && seconds > 0) ring(this.throughputs, endpointId).add(tokens / seconds);
  }

  latency(endpointId: string): number | null {
    return this.firstToken.get(endpointId)?.median() ?? null;
  }

  throughput(endpointId: string): number | null {
    return this.throughputs.get(endpointId)?.median() ?? null;
  }
}

function ring(map: Map<string, SampleRing>, key: string): SampleRing {
  let found = map.get(key);
  if (!found) {
    found = new SampleRing();
    map.set(key, found);
  }
  return found;
}
