import { DDSketch } from '@datadog/sketches-js';
import type { EndpointSample } from './endpoint-sample.js';
import { RenderSums } from './render-sums.js';

/** Relative accuracy of every sketch: a reported percentile is within 1% of the true one. */
export const SKETCH_ACCURACY = 0.01;

/** The distributions a bucket keeps, by name. */
export const SKETCHES = ['ttft', 'response', 'throughput'] as const;
export type SketchName = (typeof SKETCHES)[number];

/** What one bucket counts, by name: attempts and failures (uptime), tool calls, complete streams. */
export interface BucketCounts {
  attempts: number;
  failures: number;
  toolCalls: number;
  toolCallFailures: number;
  streams: number;
  runaways: number;
}

/**
 * The samples of one endpoint over one span of time (a minute, or an hour rolled up from them):
 * counts, and a mergeable quantile sketch per distribution, created on its first value. Buckets of
 * the same endpoint add up, whether of other minutes or of other instances.
 */
export class FigureBucket implements BucketCounts {
  attempts = 0;
  failures = 0;
  toolCalls = 0;
  toolCallFailures = 0;
  streams = 0;
  runaways = 0;
  ttft: DDSketch | undefined;
  response: DDSketch | undefined;
  throughput: DDSketch | undefined;
  /** Renders (image generation), kept as long as the distributions. */
  renders: RenderSums | undefined;

  add(sample: EndpointSample): void {
    if (sample.ok !== undefined) {
      this.attempts += 1;
      if (!sample.ok) this.failures += 1;
    }
    if (sample.ttftSeconds !== undefined) (this.ttft ??= newSketch()).accept(sample.ttftSeconds);
    if (sample.responseSeconds !== undefined) (this.response ??= newSketch()).accept(sample.responseSeconds);
    if (sample.tokensPerSecond !== undefined) (this.throughput ??= newSketch()).accept(sample.tokensPerSecond);
    if (sample.toolCall !== undefined) {
      this.toolCalls += 1;
      if (!sample.toolCall) this.toolCallFailures += 1;
    }
    if (sample.runaway !== undefined) {
      this.streams += 1;
      if (sample.runaway) this.runaways += 1;
    }
    if (sample.render !== undefined) (this.renders ??= new RenderSums()).add(sample.render);
  }

  /** Adds `other` into this bucket; `other` is left as it was. */
  merge(other: FigureBucket, options: { sketches: boolean } = { sketches: true }): void {
    this.addCounts(other);
    if (!options.sketches) return;
    for (const name of SKETCHES) {
      const sketch = other[name];
      if (sketch && sketch.count > 0) (this[name] ??= newSketch()).merge(sketch);
    }
    if (other.renders && other.renders.renders > 0) (this.renders ??= new RenderSums()).merge(other.renders);
  }

  addCounts(counts: BucketCounts): void {
    this.attempts += counts.attempts;
    this.failures += counts.failures;
    this.toolCalls += counts.toolCalls;
    this.toolCallFailures += counts.toolCallFailures;
    this.streams += counts.streams;
    this.runaways += counts.runaways;
  }

  /** Lets go of the distributions and renders, keeping the counts (old hours only feed uptime and rates). */
  dropSketches(): void {
    this.ttft = undefined;
    this.response = undefined;
    this.throughput = undefined;
    this.renders = undefined;
  }
}

function newSketch(): DDSketch {
  return new DDSketch({ relativeAccuracy: SKETCH_ACCURACY });
}

/** A sketch as stored: its protobuf encoding in base64, or null when it holds nothing. */
export function encodeSketch(sketch: DDSketch | undefined): string | null {
  if (!sketch || sketch.count === 0) return null;
  return Buffer.from(sketch.toProto()).toString('base64');
}

export function decodeSketch(text: string | null): DDSketch | undefined {
  if (text === null) return undefined;
  return DDSketch.fromProto(Buffer.from(text, 'base64'));
}
