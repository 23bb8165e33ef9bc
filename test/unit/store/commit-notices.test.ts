import { afterEach, describe, expect, it } from 'vitest';
import { bumpKeyRevision, KeyRevisionWatch, sqliteKeyRevision } from '../../../src/accounts/key-revision.js';
import type { Store } from '../../../src/store/store.js';
import { freshSqliteStores, STORE_ENGINES } from '../../support/store-engines.js';

const opened: Store[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

describe.each(STORE_ENGINES)('notices after a commit, on $name', (engine) => {
  async function store(): Promise<{ store: Store; heard: string[] }> {
    const fresh = await engine.open();
    opened.push(fresh);
    const heard: string[] = [];
    fresh.committed.on('keys', () => heard.push('keys'));
    return { store: fresh, heard };
  }

  it('a key change is told once its write committed, not while it runs', async () => {
    const { store: database, heard } = await store();
    await database.write(async (tx) => {
      await bumpKeyRevision(tx);
      await bumpKeyRevision(tx);
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual(['keys']);
  });

  it('a write that rolls back tells nothing, and writes sharing its commit tell only their own', async () => {
    const { store: database, heard } = await store();
    const refused = database.write(async (tx) => {
      await bumpKeyRevision(tx);
      throw new Error('refused');
    });
    const quiet = database.write(async (tx) => {
      await tx.selectFrom('key_revision').select('revision').execute();
    });
    await expect(refused).rejects.toThrow('refused');
    await quiet;
    expect(heard).toEqual([]);
    await Promise.all([database.write((tx) => bumpKeyRevision(tx)), database.write(async () => undefined)]);
    expect(heard).toEqual(['keys']);
  });
});

describe('the key revision as a fleet instance knows it', () => {
  function reader(revisions: number[]) {
    const reads = { count: 0 };
    const read = async () => {
      reads.count += 1;
      return revisions[0] ?? 0;
    };
    return { reads, read };
  }

  it('while signals are heard the last reading holds until keys move; otherwise every call reads', async () => {
    const revisions = [1];
    const { reads, read } = reader(revisions);
    let told = true;
    const watch = new KeyRevisionWatch(read, () => told);
    expect(await watch.read()).toBe(1);
    expect(await watch.read()).toBe(1);
    expect(reads.count).toBe(1);
    revisions[0] = 2;
    watch.moved();
    expect(await watch.read()).toBe(2);
    expect(await watch.read()).toBe(2);
    expect(reads.count).toBe(2);
    told = false;
    await watch.read();
    await watch.read();
    expect(reads.count).toBe(4);
  });

  it('a reading begun before keys moved is not kept: the next call reads again', async () => {
    let release: (revision: number) => void = () => undefined;
    let reads = 0;
    const watch = new KeyRevisionWatch(() => {
      reads += 1;
      return new Promise<number>((resolve) => {
        release = resolve;
      });
    }, () => true);
    const early = watch.read();
    watch.moved();
    release(1);
    expect(await early).toBe(1);
    const next = watch.read();
    release(2);
    expect(await next).toBe(2);
    expect(reads).toBe(2);
  });
});

describe('the key revision of a SQLite database this process serves', () => {
  async function pair() {
    const [gateway, admin] = await freshSqliteStores();
    opened.push(gateway, admin);
    if (!gateway.sqlite) throw new Error('not a SQLite store');
    return { gateway, admin, read: sqliteKeyRevision(gateway, gateway.sqlite), sqlite: gateway.sqlite };
  }

  it('the last reading holds until a write of this process changes keys: no reading per request', async () => {
    const { gateway, read, sqlite } = await pair();
    const first = await read();
    // a change nothing announces (not one a gateway makes) shows that the revision is not read again
    sqlite.prepare('UPDATE key_revision SET revision = revision + 100 WHERE id = 1').run();
    expect(await read()).toBe(first);
    await gateway.write((tx) => bumpKeyRevision(tx));
    expect(await read()).toBe(first + 101);
  });

  it('a reading taken inside a write that rolls back is not kept: the next change still moves the revision', async () => {
    const { gateway, read } = await pair();
    const first = await read();
    // a committed change: the next call reads again
    await gateway.write((tx) => bumpKeyRevision(tx));
    const refused = gateway.write(async (tx) => {
      await bumpKeyRevision(tx);
      // another request reads while the batch runs: the same connection sees the write uncommitted
      expect(await read()).toBe(first + 2);
      throw new Error('refused');
    });
    await expect(refused).rejects.toThrow('refused');
    expect(await read()).toBe(first + 1);
    await gateway.write((tx) => bumpKeyRevision(tx));
    expect(await read()).toBe(first + 2);
  });

  it("another connection's change (the admin CLI) is read once it is looked for (every 10 ms)", async () => {
    const { admin, read } = await pair();
    const first = await read();
    await admin.write((tx) => bumpKeyRevision(tx));
    const committedAt = performance.now();
    let revision = await read();
    while (revision === first && performance.now() - committedAt < 1_000) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      revision = await read();
    }
    expect(revision).toBe(first + 1);
  });
});
