import type { EndpointFigures, MeasuredFigures } from './endpoint-figures.js';
import type { EndpointSample, SampleRecorder } from './endpoint-sample.js';
import { FigureBucket } from './figure-bucket.js';
import { gatedFigures } from './figure-gates.js';
import type { FigureRows } from './figure-rows.js';
import { FigureWindows, WINDOW_MINUTES } from './figure-windows.js';
import { MinuteRecorder, minuteOf, type ClosedBucket } from './minute-recorder.js';

/** Stored minutes this recent are read again on every sync: other instances' rows arrive late. */
const SETTLE_MINUTES = 10;
/** Distributions are read back for the last day and the hour a day window reaches into. */
const SKETCH_MINUTES = WINDOW_MINUTES.last1d + 60;
/** Rows are kept seven days and a margin; sketches a day and the same margin. */
const RETENTION_MINUTES = WINDOW_MINUTES.last7d + 60;
const PRUNE_EVERY_MINUTES = 60;

export interface FigureStorage {
  rows: FigureRows;
  /** This instance's id, stamped on the rows it writes. */
  instanceId: string;
}

/**
 * The measured figures of every endpoint. Samples go into this instance's minute buckets (the hot
 * path); `sync` (a background task, every few seconds) stores the closed minutes and reads every
 * instance's recent minutes back, so the figures are the fleet's, survive restarts, and never
 * include the minute in progress. Figures are computed per endpoint on first read after a sync and
 * kept until the next one, so the planner and the listing read a ready-made object. Without storage
 * (unit tests, a planner fixture) the closed minutes are this process's alone.
 */
export class MeasuredEndpointFigures implements EndpointFigures, SampleRecorder {
  readonly #recorder: MinuteRecorder;
  readonly #windows = new FigureWindows();
  readonly #cache = new Map<string, { version: number; figures: MeasuredFigures }>();
  #minute: number;
  #version = 0;
  #loaded = false;
  #prunedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: { now?: () => number; storage?: FigureStorage } = {}) {
    this.#recorder = new MinuteRecorder(options.now);
    this.#minute = minuteOf(this.#now());
  }

  record(endpointId: string, sample: EndpointSample): void {
    this.#recorder.record(endpointId, sample);
  }

  figuresOf(endpointId: string): MeasuredFigures {
    const cached = this.#cache.get(endpointId);
    if (cached && cached.version === this.#version) return cached.figures;
    const figures = gatedFigures(this.#windows.totals(endpointId, this.#minute));
    this.#cache.set(endpointId, { version: this.#version, figures });
    return figures;
  }

  /**
   * Closes the minutes before the current one (all of them when `final`: the instance stops),
   * stores them, reads the recent minutes of every instance back, and moves the windows on. The
   * first sync loads the last seven days. Buckets that could not be stored are kept for the next.
   * Resolves to how many minute buckets were closed (and stored, where there is storage).
   */
  async sync(options: { final?: boolean } = {}): Promise<number> {
    const now = this.#now();
    const minute = minuteOf(now);
    const closed = this.#recorder.takeClosed(now, { all: options.final === true });
    const { storage } = this.options;
    if (storage) await this.#exchange(storage, closed, minute);
    else for (const { endpointId, minute: start, bucket } of closed) this.#windows.setMinute(endpointId, start, bucket);
    this.#windows.roll(minute);
    this.#minute = Math.max(this.#minute, minute);
    this.#changed();
    return closed.length;
  }

  /**
   * Reads every instance's recent minutes again without storing any (another instance just stored
   * its own), so the figures add up over the fleet without waiting for this instance's next sync.
   */
  async refresh(): Promise<void> {
    const { storage } = this.options;
    if (!storage || !this.#loaded) return;
    const minute = minuteOf(this.#now());
    await this.#readRecent(storage.rows, minute);
    this.#windows.roll(minute);
    this.#minute = Math.max(this.#minute, minute);
    this.#changed();
  }

  #changed(): void {
    this.#version += 1;
    this.#cache.clear();
  }

  async #exchange(storage: FigureStorage, closed: ClosedBucket[], minute: number): Promise<void> {
    if (!this.#loaded) {
      await this.#load(storage.rows, minute);
      this.#loaded = true;
    }
    const kept = closed.filter((bucket) => bucket.minute >= minute - RETENTION_MINUTES);
    try {
      await storage.rows.write(storage.instanceId, kept);
    } catch (error) {
      this.#recorder.giveBack(kept);
      throw error;
    }
    await this.#readRecent(storage.rows, minute);
    if (minute - this.#prunedAt >= PRUNE_EVERY_MINUTES) {
      await storage.rows.prune(minute - RETENTION_MINUTES, minute - SKETCH_MINUTES);
      this.#prunedAt = minute;
    }
  }

  async #readRecent(rows: FigureRows, minute: number): Promise<void> {
    for (const recent of await rows.readMinutes(minute - SETTLE_MINUTES)) {
      this.#windows.setMinute(recent.endpointId, recent.minute, recent.bucket);
    }
  }

  /** The last seven days: counts per hour beyond the last day, every minute (with sketches) within it. */
  async #load(rows: FigureRows, minute: number): Promise<void> {
    const sketchesFrom = Math.floor((minute - SKETCH_MINUTES) / 60) * 60;
    for (const { endpointId, hour, counts } of await rows.readHourCounts(minute - RETENTION_MINUTES, sketchesFrom)) {
      const bucket = new FigureBucket();
      bucket.addCounts(counts);
      this.#windows.addHour(endpointId, hour, bucket);
    }
    for (const loaded of await rows.readMinutes(sketchesFrom)) {
      this.#windows.setMinute(loaded.endpointId, loaded.minute, loaded.bucket);
    }
  }

  #now(): number {
    return (this.options.now ?? Date.now)();
  }
}
