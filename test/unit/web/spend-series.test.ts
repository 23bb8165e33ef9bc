import { describe, expect, it } from 'vitest';
import { ACTIVITY_DAYS } from '../../../src/billing/daily-activity.js';
import { parseUsd } from '../../../src/billing/money.js';
import type { GenerationsTable } from '../../../src/store/schema.js';
import { readSpendSeries } from '../../../src/web/spend-series.js';
import { STORE_ENGINES, storeOpener } from '../../support/store-engines.js';

const DAY = 86_400_000;

function generation(id: string, fields: Pick<GenerationsTable, 'created_at' | 'cost_units' | 'model'> & Partial<GenerationsTable>): GenerationsTable {
  return {
    id, account_id: 'acct_a', workspace_id: 'ws_a', key_id: 'key_a', provider_slug: 'sim-a', provider_name: 'Sim A',
    endpoint_id: `${fields.model}@sim-a`, upstream_id: null, streamed: 0, status: 'success', finish_reason: 'stop', native_finish_reason: 'stop', error_code: null,
    error_message: null, prompt_tokens: 10, completion_tokens: 5, cached_tokens: null, cache_write_tokens: null, reasoning_tokens: null, estimated_prompt_tokens: 10,
    cost_lines: '[]', uncollected_units: null, uncollected_reason: null, latency_ms: 1, generation_ms: 2, app_title: null, app_referer: null, metadata: null,
    instance_id: null, hold_id: null, held_units: null, held_at: null, hold_expires_at: null,
    ...fields,
  };
}

describe.each(STORE_ENGINES)('the spend chart on $name', (engine) => {
  const open = storeOpener(engine);

  it('sums the spend per UTC day and model over the 30 days, exactly, one series per model and a point for every day', async () => {
    const store = await open();
    const today = Date.UTC(2025, 2, 12);
    await store.db.insertInto('generations').values([
      generation('gen-1', { model: 'acme/chat', created_at: today + 1, cost_units: parseUsd('0.1').toString() }),
      generation('gen-2', { model: 'acme/chat', created_at: today + 2, cost_units: parseUsd('0.000000000000000000000001').toString(), endpoint_id: 'acme/chat@sim-b' }),
      generation('gen-3', { model: 'acme/chat', created_at: today - 1, cost_units: parseUsd('1').toString() }),
      generation('gen-4', { model: 'acme/think', created_at: today - 29 * DAY, cost_units: parseUsd('2').toString() }),
      generation('gen-5', { model: 'acme/think', created_at: today - 30 * DAY, cost_units: parseUsd('9').toString() }),
      generation('gen-6', { model: 'acme/think', created_at: today + 3, cost_units: parseUsd('5').toString(), account_id: 'acct_b' }),
    ]).execute();
    const chart = await readSpendSeries(store, 'acct_a', new Date(today + 10 * 3_600_000));
    expect(chart.days).toHaveLength(ACTIVITY_DAYS);
    expect(chart.days[0]).toBe((today - 29 * DAY) / 1000);
    expect(chart.days.at(-1)).toBe(today / 1000);
    const zeros = (count: number) => Array.from({ length: count }, () => '0');
    expect(chart.series).toEqual([
      { model: 'acme/chat', usd: [...zeros(28), '1', '0.100000000000000000000001'] },
      { model: 'acme/think', usd: ['2', ...zeros(29)] },
    ]);
  });
});
