import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createAccount } from '../../../src/accounts/accounts.js';
import { createGenerationCheckpoints } from '../../../src/billing/generation-checkpoints.js';
import { createGenerationReader } from '../../../src/billing/generations.js';
import { createLedger } from '../../../src/billing/ledger.js';
import { parseUsd } from '../../../src/billing/money.js';
import type { Store } from '../../../src/store/store.js';
import { holdRequest } from '../../support/hold-request.js';
import { STORE_ENGINES, type StoreEngine } from '../../support/store-engines.js';

const opened: Store[] = [];
const logger = pino({ level: 'silent' });

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

let engine: StoreEngine;

async function pendingGeneration() {
  const store = await engine.open();
  opened.push(store);
  const account = await createAccount(store, { name: 'Ada', creditsUsd: '5' });
  const owner = { accountId: account.accountId, workspaceId: account.workspaceId, keyId: account.keyId };
  const ledger = createLedger(store, { instanceId: 'inst_a' });
  const hold = await ledger.hold(holdRequest(owner, 'g1', parseUsd('1')));
  const read = () => createGenerationReader(store).get('g1', owner.accountId);
  return { store, owner, ledger, hold, read, checkpoints: createGenerationCheckpoints(store, { logger }) };
}

describe.each(STORE_ENGINES)('generation checkpoints on $name', (current) => {
  beforeAll(() => {
    engine = current;
  });

  it('a checkpoint keeps the serving endpoint and the counts delivered on the pending generation', async () => {
    const { checkpoints, read } = await pendingGeneration();
    await checkpoints.record('g1', { endpointId: 'alpha/acme/chat', completionTokens: 40 });
    expect(await read()).toMatchObject({ status: 'pending', endpointId: 'alpha/acme/chat', completionTokens: 40, cost: 0n });
    await checkpoints.record('g1', { endpointId: 'alpha/acme/chat', completionTokens: 80, promptTokens: 12 });
    expect(await read()).toMatchObject({ status: 'pending', completionTokens: 80, promptTokens: 12 });
  });

  it('a checkpoint arriving after a later one never lowers the counts', async () => {
    const { checkpoints, read } = await pendingGeneration();
    await checkpoints.record('g1', { endpointId: 'alpha/acme/chat', completionTokens: 80 });
    await checkpoints.record('g1', { endpointId: 'alpha/acme/chat', completionTokens: 40 });
    expect((await read())?.completionTokens).toBe(80);
  });

  it('a checkpoint arriving after the settlement leaves the final record as it is', async () => {
    const { checkpoints, read, ledger, hold } = await pendingGeneration();
    const settled = { ...hold.pending, status: 'success' as const, completionTokens: 7, cost: parseUsd('0.1') };
    await ledger.settle(hold, settled);
    await checkpoints.record('g1', { endpointId: 'alpha/acme/chat', completionTokens: 500 });
    expect(await read()).toEqual(settled);
  });

  it('a checkpoint the store cannot take is logged, never thrown at the stream', async () => {
    const { store } = await pendingGeneration();
    const warnings: unknown[] = [];
    const checkpoints = createGenerationCheckpoints(store, { logger: { warn: (entry: unknown) => void warnings.push(entry) } });
    opened.splice(opened.indexOf(store), 1);
    await store.close();
    await expect(checkpoints.record('g1', { endpointId: 'alpha/acme/chat', completionTokens: 40 })).resolves.toBeUndefined();
    expect(warnings).toMatchObject([{ generation: 'g1' }]);
  });
});

describe.each(STORE_ENGINES)('first checkpoints of streams on $name', (current) => {
  beforeAll(() => {
    engine = current;
  });

  it('streams opening together are marked committed, each naming its endpoint, by fewer writes than streams', async () => {
    const { store, owner, ledger } = await pendingGeneration();
    const holds = [];
    for (let index = 0; index < 24; index += 1) holds.push(await ledger.hold(holdRequest(owner, `s${index}`, parseUsd('0.1'))));
    let writes = 0;
    const counted: Store = {
      ...store,
      db: new Proxy(store.db, {
        get(target, name, receiver) {
          if (name !== 'executeQuery') return Reflect.get(target, name, receiver) as unknown;
          return (...query: Parameters<Store['db']['executeQuery']>) => {
            writes += 1;
            return target.executeQuery(...query);
          };
        },
      }),
      write: (work) => {
        writes += 1;
        return store.write(work);
      },
      writeStatement: (work) => {
        writes += 1;
        return store.writeStatement(work);
      },
    };
    const checkpoints = createGenerationCheckpoints(counted, { logger });
    await Promise.all(holds.map((hold, index) => checkpoints.committed(hold, `alpha/model-${index % 3}`)));
    expect(writes).toBeLessThan(holds.length / 2);
    const reader = createGenerationReader(store);
    for (const [index, hold] of holds.entries()) {
      expect(await reader.get(hold.generationId, owner.accountId)).toMatchObject({ status: 'pending', endpointId: `alpha/model-${index % 3}`, completionTokens: 0 });
    }
  });

  it('a first checkpoint that cannot be written is logged alone: the streams opening with it are still marked', async () => {
    const { store, owner, ledger } = await pendingGeneration();
    const holds = [];
    for (let index = 0; index < 3; index += 1) holds.push(await ledger.hold(holdRequest(owner, `s${index}`, parseUsd('0.1'))));
    const [first, second, third] = holds;
    if (!first || !second || !third) throw new Error('three holds expected');
    const warnings: unknown[] = [];
    const checkpoints = createGenerationCheckpoints(store, { logger: { warn: (entry: unknown) => void warnings.push(entry) } });
    // its row lacks the model, which the table requires: on PostgreSQL the hold wrote the row, so only the endpoint is written
    const broken = { ...second, generationId: 'unstored', pending: { ...second.pending, id: 'unstored', model: null as unknown as string } };
    await Promise.all([checkpoints.committed(first, 'alpha/one'), checkpoints.committed(broken, 'alpha/two'), checkpoints.committed(third, 'alpha/three')]);
    const reader = createGenerationReader(store);
    expect(await reader.get(first.generationId, owner.accountId)).toMatchObject({ status: 'pending', endpointId: 'alpha/one' });
    expect(await reader.get(third.generationId, owner.accountId)).toMatchObject({ status: 'pending', endpointId: 'alpha/three' });
    expect(await reader.get('unstored', owner.accountId)).toBeNull();
    if (current.name === 'sqlite') expect(warnings).toMatchObject([{ generation: 'unstored' }]);
  });
});
