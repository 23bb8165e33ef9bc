import { FigureBucket } from './figure-bucket.js';

/** The windows figures are reported over, in minutes. */
export const WINDOW_MINUTES = { last5m: 5, last30m: 30, last1d: 1_440, last7d: 10_080 } as const;
export type WindowName = keyof typeof WINDOW_MINUTES;

/** Minute buckets are rolled into their hour once the hour ended this long ago. */
const ROLL_AFTER_MINUTES = 40;
/** Hours keep their distributions this long (the longest window with percentiles is a day). */
const SKETCH_HOURS = 25;
/** Hours are kept this long: seven days and the hour a window may reach into. */
const KEEP_HOURS = 7 * 24 + 1;

/** Every window's bucket of one endpoint: counts for all four, distributions for 30 minutes and a day. */
export type WindowTotals = Record<WindowName, FigureBucket>;

interface EndpointBuckets {
  minutes: Map<number, FigureBucket>;
  hours: Map<number, FigureBucket>;
}

/**
 * The closed buckets of every endpoint, as the figures are computed from them: a bucket per minute
 * for at least the last 40 minutes, and a bucket per hour before that (kept seven days; the
 * distributions of the last day only). The 5- and 30-minute windows are exact to the minute; the
 * day and the seven days are whole hours beyond the last 40 minutes, so they reach back up to an
 * hour further than their length.
 */
export class FigureWindows {
  readonly #endpoints = new Map<string, EndpointBuckets>();
  /** Hours before this one are rolled up. */
  #rolledBefore = Number.NEGATIVE_INFINITY;

  /** Puts one endpoint's bucket of one minute: it replaces what the minute held, or adds to its rolled-up hour. */
  setMinute(endpointId: string, minute: number, bucket: FigureBucket): void {
    const buckets = this.#bucketsOf(endpointId);
    const hour = Math.floor(minute / 60);
    if (hour < this.#rolledBefore) addInto(buckets.hours, hour, bucket);
    else buckets.minutes.set(minute, bucket);
  }

  /** Adds a whole hour's bucket (counts only, or with distributions) of one endpoint. */
  addHour(endpointId: string, hour: number, bucket: FigureBucket): void {
    addInto(this.#bucketsOf(endpointId).hours, hour, bucket);
  }

  /** Rolls minutes into hours and forgets what no window reaches any more, as of `minute`. */
  roll(minute: number): void {
    const rolledBefore = Math.floor((minute - ROLL_AFTER_MINUTES) / 60);
    if (rolledBefore < this.#rolledBefore) return;
    this.#rolledBefore = rolledBefore;
    const currentHour = Math.floor(minute / 60);
    for (const [endpointId, buckets] of this.#endpoints) {
      for (const [start, bucket] of buckets.minutes) {
        const hour = Math.floor(start / 60);
        if (hour >= rolledBefore) continue;
        addInto(buckets.hours, hour, bucket);
        buckets.minutes.delete(start);
      }
      for (const [hour, bucket] of buckets.hours) {
        if (hour <= currentHour - KEEP_HOURS) buckets.hours.delete(hour);
        else if (hour <= currentHour - SKETCH_HOURS) bucket.dropSketches();
      }
      if (buckets.minutes.size === 0 && buckets.hours.size === 0) this.#endpoints.delete(endpointId);
    }
  }

  /** The endpoint's windows ending before `minute` (the minute in progress is not in any). */
  totals(endpointId: string, minute: number): WindowTotals {
    const totals: WindowTotals = { last5m: new FigureBucket(), last30m: new FigureBucket(), last1d: new FigureBucket(), last7d: new FigureBucket() };
    const buckets = this.#endpoints.get(endpointId);
    if (!buckets) return totals;
    for (const [start, bucket] of buckets.minutes) {
      const age = minute - start;
      if (age < 1 || age > WINDOW_MINUTES.last7d) continue;
      if (age <= WINDOW_MINUTES.last5m) totals.last5m.merge(bucket, { sketches: false });
      if (age <= WINDOW_MINUTES.last30m) totals.last30m.merge(bucket);
      else if (age <= WINDOW_MINUTES.last1d) totals.last1d.merge(bucket);
      else totals.last7d.merge(bucket, { sketches: false });
    }
    for (const [hour, bucket] of buckets.hours) {
      const age = minute - (hour + 1) * 60;
      if (age < 0 || age >= WINDOW_MINUTES.last7d) continue;
      if (age < WINDOW_MINUTES.last1d) totals.last1d.merge(bucket);
      else totals.last7d.merge(bucket, { sketches: false });
    }
    totals.last1d.merge(totals.last30m);
    totals.last7d.merge(totals.last1d, { sketches: false });
    return totals;
  }

  /** Endpoints with any bucket. */
  endpointIds(): IterableIterator<string> {
    return this.#endpoints.keys();
  }

  #bucketsOf(endpointId: string): EndpointBuckets {
    let buckets = this.#endpoints.get(endpointId);
    if (!buckets) {
      buckets = { minutes: new Map(), hours: new Map() };
      this.#endpoints.set(endpointId, buckets);
    }
    return buckets;
  }
}

function addInto(map: Map<number, FigureBucket>, key: number, bucket: FigureBucket): void {
  let target = map.get(key);
  if (!target) {
    target = new FigureBucket();
    map.set(key, target);
  }
  target.merge(bucket);
}
