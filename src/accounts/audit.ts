import type { Db } from '../store/store.js';
import { newTimeOrderedRecordId } from './record-id.js';

/** Who made a change: a signed-in person, a management key (by its hash), or the operator's CLI. */
export type Actor =
  | { kind: 'user'; userId: string }
  | { kind: 'management_key'; keyHash: string }
  | { kind: 'cli' };

/** Where a change came in. */
export type AuditChannel = 'cli' | 'api' | 'dashboard' | 'approval';

/** Who, through what, from which address: handed to every function that changes an account. */
export interface ChangeContext {
  actor: Actor;
  via: AuditChannel;
  /** The client address of the request; null from the CLI. */
  address: string | null;
}

/** The CLI's context: no person, no address. */
export const CLI_CHANGE: ChangeContext = { actor: { kind: 'cli' }, via: 'cli', address: null };

/**
 * What changed, as one append-only row. `before` and `after` are plain JSON of the changed record's
 * public members (amounts as USD decimal strings): never a key, a password, a hash of either, a code
 * or a session token.
 */
export interface AuditChange {
  accountId: string;
  /** Dotted, noun first: `key.create`, `key.update`, `key.revoke`, `limit.set`, `workspace.create`, `user.create`, `credits.add`, `routing.set`, … */
  action: string;
  /** The changed record's id (key hash, workspace id, user id, account id); null where none. */
  target: string | null;
  before: unknown;
  after: unknown;
}

/** Appends one audit row inside the transaction `tx` that makes the change. */
export async function recordAudit(tx: Db, context: ChangeContext, change: AuditChange, at: Date = new Date()): Promise<void> {
  await tx
    .insertInto('audit_events')
    .values({
      id: newTimeOrderedRecordId('aud'),
      account_id: change.accountId,
      at: at.getTime(),
      actor_kind: context.actor.kind,
      actor_id: actorId(context.actor),
      via: context.via,
      action: change.action,
      target: change.target,
      before_json: change.before === undefined || change.before === null ? null : JSON.stringify(change.before),
      after_json: change.after === undefined || change.after === null ? null : JSON.stringify(change.after),
      address: context.address,
    })
    .execute();
}

function actorId(actor: Actor): string | null {
  switch (actor.kind) {
    case 'user':
      return actor.userId;
    case 'management_key':
      return actor.keyHash;
    case 'cli':
      return null;
    default: {
      const unreachable: never = actor;
      throw new Error(`unknown actor ${JSON.stringify(unreachable)}`);
    }
  }
}

/** One audit row as the API and the dashboard show it. */
export interface AuditEvent {
  id: string;
  at: string;
  actor: { kind: Actor['kind']; id: string | null };
  via: string;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
  address: string | null;
}

export interface AuditPage {
  events: AuditEvent[];
  /** Pass as `after` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

/** The account's audit trail, newest first; `after` is the id of the last event of the previous page. */
export async function readAudit(db: Db, accountId: string, page: { limit: number; after?: string }): Promise<AuditPage> {
  const rows = await db
    .selectFrom('audit_events')
    .selectAll()
    .where('account_id', '=', accountId)
    .$if(page.after !== undefined, (query) => query.where('id', '<', page.after ?? ''))
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const events = rows.slice(0, page.limit).map((row): AuditEvent => ({
    id: row.id,
    at: new Date(row.at).toISOString(),
    actor: { kind: row.actor_kind as Actor['kind'], id: row.actor_id },
    via: row.via,
    action: row.action,
    target: row.target,
    before: row.before_json === null ? null : JSON.parse(row.before_json),
    after: row.after_json === null ? null : JSON.parse(row.after_json),
    address: row.address,
  }));
  const last = events.at(-1);
  return { events, nextCursor: rows.length > page.limit && last ? last.id : null };
}
