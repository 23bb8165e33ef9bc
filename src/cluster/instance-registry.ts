import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { newRecordId } from '../accounts/record-id.js';
import type { Store } from '../store/store.js';

/** This process as the other instances see it. */
export interface InstanceIdentity {
  id: string;
  /** Where `pid` names a process: the host name and, on Linux, the PID namespace. */
  host: string;
  pid: number;
}

export function newInstanceIdentity(): InstanceIdentity {
  return { id: newRecordId('inst'), host: processSpace(), pid: process.pid };
}

/** The host name, plus the PID namespace where there is one (two containers may share a host name). */
function processSpace(): string {
  try {
    return `${hostname()}/${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return hostname();
  }
}

/**
 * The `instances` table: each running gateway's heartbeat row. An instance is gone when its
 * heartbeat is older than `staleAfterMs`, or, seen from its own host, when its process no longer
 * runs (a restart knows at once that its predecessor died); the instance ids still stamped on
 * pending generations but without a row are gone too (a stopped instance deletes its row).
 */
export class InstanceRegistry {
  constructor(
    private readonly store: Store,
    readonly identity: InstanceIdentity,
    private readonly now: () => number = Date.now,
  ) {}

  async register(): Promise<void> {
    const at = this.now();
    const { id, host, pid } = this.identity;
    await this.store.write((tx) => tx.insertInto('instances').values({ id, host, pid, started_at: at, heartbeat_at: at }).execute());
  }

  /** Writes the heartbeat; false when the row was gone (the others took this instance for dead) and had to be written again. */
  async beat(): Promise<boolean> {
    const at = this.now();
    const updated = await this.store.write((tx) =>
      tx.updateTable('instances').set({ heartbeat_at: at }).where('id', '=', this.identity.id).executeTakeFirst(),
    );
    if (updated.numUpdatedRows > 0n) return true;
    await this.register();
    return false;
  }

  /** How many instances (this one included) wrote a heartbeat within `staleAfterMs`. */
  async live(staleAfterMs: number): Promise<number> {
    const row = await this.store.db.selectFrom('instances').select((eb) => eb.fn.countAll<number>().as('live'))
      .where('heartbeat_at', '>=', this.now() - staleAfterMs).executeTakeFirst();
    return Math.max(1, Number(row?.live ?? 1));
  }

  /** Deletes this instance's row (it stopped) or a gone instance's once its generations are settled. */
  async forget(id: string = this.identity.id): Promise<void> {
    await this.store.write((tx) => tx.deleteFrom('instances').where('id', '=', id).execute());
  }

  /** Instances other than this one that are gone. */
  async gone(staleAfterMs: number): Promise<string[]> {
    // Pending generations first: an instance registers before it admits anything, so every id
    // read here that is alive is still in the table read next.
    const stamped = await this.store.db
      .selectFrom('generations')
      .select('instance_id')
      .distinct()
      .where('status', '=', 'pending')
      .where('instance_id', 'is not', null)
      .execute();
    const rows = await this.store.db.selectFrom('instances').selectAll().execute();
    const cutoff = this.now() - staleAfterMs;
    const known = new Set(rows.map((row) => row.id));
    const gone = rows.filter((row) => row.id !== this.identity.id && (row.heartbeat_at < cutoff || this.#exited(row))).map((row) => row.id);
    for (const { instance_id: id } of stamped) if (id !== null && id !== this.identity.id && !known.has(id)) gone.push(id);
    return gone;
  }

  /** Seen from its own host: its process no longer runs. */
  #exited(row: { host: string; pid: number }): boolean {
    return row.host === this.identity.host && !processRuns(row.pid);
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
