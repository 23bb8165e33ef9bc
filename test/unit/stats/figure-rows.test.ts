import { afterEach, describe, expect, it } from 'vitest';
import { createFigureRows } from '../../../src/stats/figure-rows.js';
import { MeasuredEndpointFigures } from '../../../src/stats/measured-figures.js';
import type { Store } from '../../../src/store/store.js';
import { STORE_ENGINES } from '../../support/store-engines.js';

const ENDPOINT = 'alpha/acme/chat';
const MINUTE = 60_000;

const opened: Store[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

/** A clock shared by every instance of one test. */
function clockAt(iso: string) {
  const clock = { now: Date.parse(iso) };
  return { clock, now: () => clock.now };
}

describe.each(STORE_ENGINES)('stored figures on $name', (engine) => {
  async function store(): Promise<Store> {
    const fresh = await engine.open();
    opened.push(fresh);
    return fresh;
  }

  function instance(database: Store, id: string, now: () => number): MeasuredEndpointFigures {
    return new MeasuredEndpointFigures({ now, storage: { rows: createFigureRows(database), instanceId: id } });
  }

  it('a restart keeps the figures: the stopping instance stores its minute in progress, the next one loads them', async () => {
    const database = await store();
    const { clock, now } = clockAt('2025-07-01T12:00:10Z');
    const before = instance(database, 'inst_a', now);
    await before.sync();
    for (let index = 0; index < 6; index += 1) before.record(ENDPOINT, { ok: true, ttftSeconds: 0.25, responseSeconds: 1.5, tokensPerSecond: 120 });
    before.record(ENDPOINT, { ok: false });
    for (let index = 0; index < 3; index += 1) before.record(ENDPOINT, { ok: true, toolCall: true });
    await before.sync({ final: true });
    clock.now += MINUTE;
    const after = instance(database, 'inst_b', now);
    await after.sync();
    const figures = after.figuresOf(ENDPOINT);
    expect(figures.uptime.last5m).toEqual({ value: 90, samples: 10 });
    expect(figures.ttft.last30m.samples).toBe(6);
    expect(figures.ttft.last30m.value?.p50).toBeCloseTo(0.25, 2);
    expect(figures.response.last1d.value?.p90).toBeCloseTo(1.5, 1);
    expect(figures.throughput.last1d.value?.p50).toBeCloseTo(120, -1);
  });

  it('a fleet adds up: each instance\'s minutes of one endpoint are summed, sketches merged', async () => {
    const database = await store();
    const { clock, now } = clockAt('2025-07-01T12:00:10Z');
    const first = instance(database, 'inst_a', now);
    const second = instance(database, 'inst_b', now);
    await first.sync();
    await second.sync();
    for (let index = 0; index < 5; index += 1) first.record(ENDPOINT, { ok: true, ttftSeconds: 0.1 });
    for (let index = 0; index < 5; index += 1) second.record(ENDPOINT, { ok: false, ttftSeconds: 0.9 });
    clock.now += MINUTE;
    await first.sync();
    await second.sync();
    await first.sync();
    for (const figures of [first.figuresOf(ENDPOINT), second.figuresOf(ENDPOINT)]) {
      expect(figures.uptime.last5m).toEqual({ value: 50, samples: 10 });
      expect(figures.ttft.last30m.samples).toBe(10);
      expect(figures.ttft.last30m.value?.p99).toBeCloseTo(0.9, 2);
    }
  });

  it('an instance told that another stored its minutes reads them at once, storing nothing of its own', async () => {
    const database = await store();
    const { clock, now } = clockAt('2025-07-01T12:00:10Z');
    const first = instance(database, 'inst_a', now);
    const second = instance(database, 'inst_b', now);
    await first.sync();
    await second.sync();
    for (let index = 0; index < 12; index += 1) first.record(ENDPOINT, { ok: true, ttftSeconds: 0.2 });
    for (let index = 0; index < 4; index += 1) second.record(ENDPOINT, { ok: false });
    clock.now += MINUTE;
    expect(await first.sync()).toBe(1);
    expect(second.figuresOf(ENDPOINT).uptime.last5m.samples).toBe(0);
    await second.refresh();
    expect(second.figuresOf(ENDPOINT).uptime.last5m).toEqual({ value: 100, samples: 12 });
    // its own closed minute waits for its own sync
    expect(await second.sync()).toBe(1);
    expect(second.figuresOf(ENDPOINT).uptime.last5m).toEqual({ value: 75, samples: 16 });
  });

  it('figures older than a day load as counts by hour; rows past seven days are pruned', async () => {
    const database = await store();
    const { clock, now } = clockAt('2025-07-01T12:00:10Z');
    const writer = instance(database, 'inst_a', now);
    await writer.sync();
    for (let index = 0; index < 10; index += 1) writer.record(ENDPOINT, { ok: true, ttftSeconds: 0.3 });
    await writer.sync({ final: true });
    clock.now += 2 * 24 * 60 * MINUTE;
    const twoDaysLater = instance(database, 'inst_b', now);
    await twoDaysLater.sync();
    const figures = twoDaysLater.figuresOf(ENDPOINT);
    expect(figures.uptime.last7d).toEqual({ value: 100, samples: 10 });
    expect(figures.uptime.last1d.samples).toBe(0);
    expect(figures.ttft.last1d.samples).toBe(0);
    const cleared = await database.db.selectFrom('endpoint_figures').select(['ttft', 'attempts']).execute();
    expect(cleared).toEqual([{ ttft: null, attempts: 10 }]);
    clock.now += 6 * 24 * 60 * MINUTE;
    await instance(database, 'inst_c', now).sync();
    expect(await database.db.selectFrom('endpoint_figures').selectAll().execute()).toEqual([]);
  });
});
