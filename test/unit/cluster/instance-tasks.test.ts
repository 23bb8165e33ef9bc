import { describe, expect, it } from 'vitest';
import type { AbandonedGenerations } from '../../../src/billing/abandoned-generations.js';
import { instanceHeartbeat } from '../../../src/cluster/instance-heartbeat.js';
import { InstanceRegistry, newInstanceIdentity } from '../../../src/cluster/instance-registry.js';
import { instanceReaper } from '../../../src/cluster/instance-reaper.js';
import { openStore } from '../../../src/store/store.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('instance tasks', () => {
  it('the heartbeat registers the instance at start and deletes its row when it stops', async () => {
    const store = await openStore('sqlite::memory:');
    const registry = new InstanceRegistry(store, newInstanceIdentity());
    const task = instanceHeartbeat(registry, { intervalMs: 60_000, staleAfterMs: 20_000, logger: quiet });
    await task.start();
    expect(await store.db.selectFrom('instances').select('id').execute()).toEqual([{ id: registry.identity.id }]);
    await task.stop();
    expect(await store.db.selectFrom('instances').select('id').execute()).toEqual([]);
    await store.close();
  });

  it('the reaper settles gone instances at start, forgets them once settled, and retries one whose settlement failed', async () => {
    const store = await openStore('sqlite::memory:');
    let now = 1_000_000;
    for (const id of ['inst_a', 'inst_b']) await new InstanceRegistry(store, { id, host: 'elsewhere', pid: 1 }, () => now).register();
    now += 60_000;
    const registry = new InstanceRegistry(store, newInstanceIdentity(), () => now);
    const settled: string[] = [];
    let failing = true;
    const abandoned: AbandonedGenerations = {
      async settle(instance) {
        if (instance === 'inst_b' && failing) throw new Error('database away');
        settled.push(instance);
        return 0;
      },
    };
    const reaper = instanceReaper(registry, abandoned, { intervalMs: 60_000, staleAfterMs: 20_000, logger: quiet });
    await reaper.start();
    await reaper.stop();
    expect(settled).toEqual(['inst_a']);
    expect(await store.db.selectFrom('instances').select('id').execute()).toEqual([{ id: 'inst_b' }]);
    failing = false;
    await reaper.start();
    await reaper.stop();
    expect(settled).toEqual(['inst_a', 'inst_b']);
    expect(await store.db.selectFrom('instances').select('id').execute()).toEqual([]);
    await store.close();
  });
});
