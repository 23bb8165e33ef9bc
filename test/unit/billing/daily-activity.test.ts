import { afterEach, describe, expect, it } from 'vitest';
import { ACTIVITY_DAYS, activityWindow, readDailyActivity } from '../../../src/billing/daily-activity.js';
import { parseUsd } from '../../../src/billing/money.js';
import type { GenerationsTable } from '../../../src/store/schema.js';
import type { Store } from '../../../src/store/store.js';
import { STORE_ENGINES } from '../../support/store-engines.js';

const AT = new Date('2025-03-12T10:00:00Z');
const DAY = 86_400_000;
let sequence = 0;

function generation(fields: Partial<GenerationsTable> & { created_at: number; cost_units: string }): GenerationsTable {
  sequence += 1;
  return {
    id: `gen-${sequence}`, account_id: 'acct_a', workspace_id: 'ws_a', key_id: 'key_a', model: 'acme/chat', provider_slug: 'sim-a', provider_name: 'Sim A',
    endpoint_id: 'acme/chat@sim-a', upstream_id: null, streamed: 0, status: 'success', finish_reason: 'stop', native_finish_reason: 'stop', error_code: null,
    error_message: null, prompt_tokens: 10, completion_tokens: 5, cached_tokens: null, cache_write_tokens: null, reasoning_tokens: null, estimated_prompt_tokens: 10,
    cost_lines: '[]', uncollected_units: null, uncollected_reason: null, latency_ms: 1, generation_ms: 2, app_title: null, app_referer: null, metadata: null,
    instance_id: null, hold_id: null, held_units: null, held_at: null, hold_expires_at: null,
    ...fields,
  };
}

describe.each(STORE_ENGINES)('daily activity on $name', (engine) => {
  const opened: Store[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  it('sums settled generations per UTC day, model and endpoint exactly; pending, unrouted, other accounts and older days are left out', async () => {
    const store = await engine.open();
    opened.push(store);
    const today = Date.UTC(2025, 2, 12);
    const tiny = parseUsd('0.000000000000000000000001').toString();
    await store.db.insertInto('generations').values([
      generation({ created_at: today + 1000, cost_units: parseUsd('0.1').toString(), reasoning_tokens: 3 }),
      generation({ created_at: today + 2000, cost_units: tiny, prompt_tokens: null }),
      generation({ created_at: today - 1, cost_units: parseUsd('1').toString() }),
      generation({ created_at: today + 3000, cost_units: parseUsd('2').toString(), endpoint_id: 'acme/chat@sim-b', provider_name: 'Sim B', workspace_id: 'ws_b' }),
      generation({ created_at: today + 4000, cost_units: '0', status: 'pending' }),
      generation({ created_at: today + 5000, cost_units: '0', status: 'error', endpoint_id: null, provider_name: null }),
      generation({ created_at: today + 6000, cost_units: parseUsd('5').toString(), account_id: 'acct_b' }),
      generation({ created_at: today - ACTIVITY_DAYS * DAY, cost_units: parseUsd('7').toString() }),
    ]).execute();

    const rows = await readDailyActivity(store.db, 'acct_a', activityWindow(AT));
    expect(rows).toEqual([
      { date: '2025-03-12', model: 'acme/chat', endpointId: 'acme/chat@sim-a', providerName: 'Sim A', usage: parseUsd('0.100000000000000000000001'), requests: 2, promptTokens: 10, completionTokens: 10, reasoningTokens: 3 },
      { date: '2025-03-12', model: 'acme/chat', endpointId: 'acme/chat@sim-b', providerName: 'Sim B', usage: parseUsd('2'), requests: 1, promptTokens: 10, completionTokens: 5, reasoningTokens: 0 },
      { date: '2025-03-11', model: 'acme/chat', endpointId: 'acme/chat@sim-a', providerName: 'Sim A', usage: parseUsd('1'), requests: 1, promptTokens: 10, completionTokens: 5, reasoningTokens: 0 },
    ]);
    const byWorkspace = await readDailyActivity(store.db, 'acct_a', { ...activityWindow(AT), workspaceId: 'ws_b', byWorkspace: true });
    expect(byWorkspace).toEqual([expect.objectContaining({ endpointId: 'acme/chat@sim-b', workspaceId: 'ws_b', requests: 1 })]);
  });

  it('the window is today and the 29 UTC days before it', () => {
    const window = activityWindow(AT);
    expect(new Date(window.from).toISOString()).toBe('2025-02-11T00:00:00.000Z');
    expect(new Date(window.to).toISOString()).toBe('2025-03-13T00:00:00.000Z');
  });
});
