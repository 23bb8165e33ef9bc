import { sql } from 'kysely';
import type { Store } from '../store/store.js';
import type { EndpointFiguresTable } from '../store/schema.js';
import { FigureBucket, decodeSketch, encodeSketch, type BucketCounts } from './figure-bucket.js';
import type { ClosedBucket } from './minute-recorder.js';
import { RenderSums } from './render-sums.js';

/** Rows written per statement: a dozen parameters each, well under either engine's limit. */
const ROWS_PER_STATEMENT = 200;

/** One endpoint's counts over one hour, summed over instances. */
export interface HourCounts {
  endpointId: string;
  hour: number;
  counts: BucketCounts;
}

/** The stored minutes of every instance: what makes figures survive restarts and add up across a fleet. */
export interface FigureRows {
  /** Stores this instance's closed minutes (again, harmlessly, if a write is repeated). */
  write(instanceId: string, buckets: readonly ClosedBucket[]): Promise<void>;
  /** Every instance's minutes from `fromMinute` on, merged per endpoint and minute. */
  readMinutes(fromMinute: number): Promise<ClosedBucket[]>;
  /** Counts summed per endpoint and hour over minutes in [fromMinute, toMinute). */
  readHourCounts(fromMinute: number, toMinute: number): Promise<HourCounts[]>;
  /** Deletes minutes before `rowsBefore`; clears the sketches of minutes before `sketchesBefore`. */
  prune(rowsBefore: number, sketchesBefore: number): Promise<void>;
}

export function createFigureRows(store: Store): FigureRows {
  return {
    async write(instanceId, buckets) {
      if (buckets.length === 0) return;
      const rows = buckets.map((closed) => rowOf(instanceId, closed));
      await store.write(async (tx) => {
        for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
          await tx.insertInto('endpoint_figures').values(rows.slice(start, start + ROWS_PER_STATEMENT))
            .onConflict((conflict) => conflict.columns(['instance_id', 'endpoint_id', 'minute']).doUpdateSet((eb) => ({
              attempts: eb.ref('excluded.attempts'),
              failures: eb.ref('excluded.failures'),
              tool_calls: eb.ref('excluded.tool_calls'),
              tool_call_failures: eb.ref('excluded.tool_call_failures'),
              streams: eb.ref('excluded.streams'),
              runaways: eb.ref('excluded.runaways'),
              ttft: eb.ref('excluded.ttft'),
              response: eb.ref('excluded.response'),
              throughput: eb.ref('excluded.throughput'),
              renders: eb.ref('excluded.renders'),
            })))
            .execute();
        }
      });
    },

    async readMinutes(fromMinute) {
      const rows = await store.db.selectFrom('endpoint_figures').selectAll().where('minute', '>=', fromMinute).execute();
      const merged = new Map<string, ClosedBucket>();
      for (const row of rows) {
        const key = `${row.endpoint_id}\u0000${row.minute}`;
        let closed = merged.get(key);
        if (!closed) {
          closed = { endpointId: row.endpoint_id, minute: Number(row.minute), bucket: new FigureBucket() };
          merged.set(key, closed);
        }
        closed.bucket.merge(bucketOf(row));
      }
      return [...merged.values()];
    },

    async readHourCounts(fromMinute, toMinute) {
      const rows = await store.db.selectFrom('endpoint_figures')
        .select((eb) => [
          'endpoint_id',
          sql<number>`minute / 60`.as('hour'),
          eb.fn.sum<number>('attempts').as('attempts'),
          eb.fn.sum<number>('failures').as('failures'),
          eb.fn.sum<number>('tool_calls').as('tool_calls'),
          eb.fn.sum<number>('tool_call_failures').as('tool_call_failures'),
          eb.fn.sum<number>('streams').as('streams'),
          eb.fn.sum<number>('runaways').as('runaways'),
        ])
        .where('minute', '>=', fromMinute)
        .where('minute', '<', toMinute)
        .groupBy(['endpoint_id', sql`minute / 60`])
        .execute();
      return rows.map((row) => ({
        endpointId: row.endpoint_id,
        hour: Number(row.hour),
        counts: {
          attempts: Number(row.attempts),
          failures: Number(row.failures),
          toolCalls: Number(row.tool_calls),
          toolCallFailures: Number(row.tool_call_failures),
          streams: Number(row.streams),
          runaways: Number(row.runaways),
        },
      }));
    },

    async prune(rowsBefore, sketchesBefore) {
      await store.write(async (tx) => {
        await tx.deleteFrom('endpoint_figures').where('minute', '<', rowsBefore).execute();
        await tx.updateTable('endpoint_figures')
          .set({ ttft: null, response: null, throughput: null, renders: null })
          .where('minute', '<', sketchesBefore)
          .where((eb) => eb.or([eb('ttft', 'is not', null), eb('response', 'is not', null), eb('throughput', 'is not', null), eb('renders', 'is not', null)]))
          .execute();
      });
    },
  };
}

function rowOf(instanceId: string, { endpointId, minute, bucket }: ClosedBucket): EndpointFiguresTable {
  return {
    instance_id: instanceId,
    endpoint_id: endpointId,
    minute,
    attempts: bucket.attempts,
    failures: bucket.failures,
    tool_calls: bucket.toolCalls,
    tool_call_failures: bucket.toolCallFailures,
    streams: bucket.streams,
    runaways: bucket.runaways,
    ttft: encodeSketch(bucket.ttft),
    response: encodeSketch(bucket.response),
    throughput: encodeSketch(bucket.throughput),
    renders: bucket.renders && bucket.renders.renders > 0 ? bucket.renders.encode() : null,
  };
}

function bucketOf(row: EndpointFiguresTable): FigureBucket {
  const bucket = new FigureBucket();
  bucket.addCounts({
    attempts: row.attempts,
    failures: row.failures,
    toolCalls: row.tool_calls,
    toolCallFailures: row.tool_call_failures,
    streams: row.streams,
    runaways: row.runaways,
  });
  bucket.ttft = decodeSketch(row.ttft);
  bucket.response = decodeSketch(row.response);
  bucket.throughput = decodeSketch(row.throughput);
  bucket.renders = RenderSums.decode(row.renders);
  return bucket;
}
