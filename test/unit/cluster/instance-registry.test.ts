import { spawnSync } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../../src/accounts/accounts.js';
import { createLedger } from '../../../src/billing/ledger.js';
import { InstanceRegistry, newInstanceIdentity, type InstanceIdentity } from '../../../src/cluster/instance-registry.js';
import type { Store } from '../../../src/store/store.js';
import { holdRequest } from '../../support/hold-request.js';
import { STORE_ENGINES, type StoreEngine } from '../../support/store-engines.js';

const opened: Store[] = [];
const STALE_MS = 20_000;

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

let engine: StoreEngine;

async function open(): Promise<Store> {
  const store = await engine.open();
  opened.push(store);
  return store;
}

/** A pid no process has any more: a child that ran and was reaped. */
function exitedPid(): number {
  const pid = spawnSync('true').pid;
  if (pid === undefined) throw new Error('could not run `true`');
  return pid;
}

describe.each(STORE_ENGINES)('instance liveness on $name', (current) => {
  beforeAll(() => {
    engine = current;
  });

  it('an instance whose heartbeat is older than the stale limit is gone; one that beat since is not', async () => {
    const store = await open();
    let now = 1_000_000;
    const other = new InstanceRegistry(store, { id: 'inst_b', host: 'elsewhere', pid: 1 }, () => now);
    await other.register();
    const self = new InstanceRegistry(store, newInstanceIdentity(), () => now);
    now += STALE_MS;
    expect(await self.gone(STALE_MS)).toEqual([]);
    now += 1;
    expect(await self.gone(STALE_MS)).toEqual(['inst_b']);
    expect(await other.beat()).toBe(true);
    expect(await self.gone(STALE_MS)).toEqual([]);
  });

  it('on the same host, an instance whose process exited is gone at once, one whose process runs is not', async () => {
    const store = await open();
    const self = new InstanceRegistry(store, newInstanceIdentity());
    const host = self.identity.host;
    await new InstanceRegistry(store, { id: 'inst_exited', host, pid: exitedPid() }).register();
    await new InstanceRegistry(store, { id: 'inst_parent', host, pid: process.ppid }).register();
    expect(await self.gone(STALE_MS)).toEqual(['inst_exited']);
  });

  it('another instance in this very process is alive', async () => {
    const store = await open();
    const self = new InstanceRegistry(store, newInstanceIdentity());
    await new InstanceRegistry(store, newInstanceIdentity()).register();
    await self.register();
    expect(await self.gone(STALE_MS)).toEqual([]);
  });

  it('an instance on another host (or PID namespace) is judged by its heartbeat alone', async () => {
    const store = await open();
    const self = new InstanceRegistry(store, newInstanceIdentity());
    const elsewhere: InstanceIdentity = { id: 'inst_far', host: `${self.identity.host}-other`, pid: exitedPid() };
    await new InstanceRegistry(store, elsewhere).register();
    expect(await self.gone(STALE_MS)).toEqual([]);
  });

  it('an instance id still stamped on pending generations but without a row (it stopped) is gone', async () => {
    const store = await open();
    const account = await createAccount(store, { name: 'Ada', creditsUsd: '5' });
    const owner = { accountId: account.accountId, workspaceId: account.workspaceId, keyId: account.keyId };
    await createLedger(store, { instanceId: 'inst_stopped' }).hold(holdRequest(owner, 'g1', 1n));
    const self = new InstanceRegistry(store, newInstanceIdentity());
    await self.register();
    await createLedger(store, { instanceId: self.identity.id }).hold(holdRequest(owner, 'g2', 1n));
    expect(await self.gone(STALE_MS)).toEqual(['inst_stopped']);
  });

  it('an instance taken for dead writes its row again on its next heartbeat', async () => {
    const store = await open();
    const self = new InstanceRegistry(store, newInstanceIdentity());
    await self.register();
    await self.forget();
    expect(await self.beat()).toBe(false);
    expect(await store.db.selectFrom('instances').select('id').execute()).toEqual([{ id: self.identity.id }]);
    expect(await self.beat()).toBe(true);
  });
});
