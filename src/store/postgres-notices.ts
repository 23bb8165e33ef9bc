import { sql } from 'kysely';
import type pg from 'pg';
import type { CommitTopic } from './commit-notices.js';
import type { Db, NoticeListener } from './store-handle.js';

/**
 * Notices between the processes on one PostgreSQL database (LISTEN/NOTIFY): what a commit changed
 * (`notifyTopics`, sent by the committing transaction itself, so the admin command line tells too),
 * and the fleet's signals where there is no Redis to carry them. The channel is the schema's, so the
 * gateways on one schema hear each other and not those on another schema of the same database.
 *
 * The channel, as SQL: `switchyard:` and the schema's name, or the name's md5 where it is longer
 * than a channel may be (63 bytes); `pg_notify` refuses a longer one, which would fail every write
 * that changes keys.
 */
const CHANNEL = `'switchyard:' || CASE WHEN octet_length(current_schema()) <= 52 THEN current_schema() ELSE md5(current_schema()) END`;

/** A notice as sent on the channel, in the shape of the fleet's signals (fleet-signals.ts): which change, from which instance (none for a commit's), when (ms since the epoch). */
interface DatabaseNotice {
  signal: string;
  from: string;
  at: number;
}

/** Sends `text` (a notice, as JSON) on the schema's channel: inside a transaction, only once it commits. */
export async function sendNotice(db: Db, text: string): Promise<void> {
  await sql`SELECT pg_notify(${sql.raw(CHANNEL)}, ${text})`.execute(db);
}

/** Inside a write, before its commit: tells every listener what the write announced, once it commits. */
export async function notifyTopics(tx: Db, topics: ReadonlySet<CommitTopic>): Promise<void> {
  for (const topic of topics) {
    const notice: DatabaseNotice = { signal: topic, from: '', at: Date.now() };
    await sendNotice(tx, JSON.stringify(notice));
  }
}

/**
 * Opens a connection of its own (outside the pool: a listening connection serves nothing else) and
 * listens on the schema's channel. `heard` gets each notice's text; `lost` is told once, when the
 * connection ends or fails after listening began (whatever was sent meanwhile is lost). Rejects when
 * it cannot connect or listen.
 */
export async function listenForNotices(
  client: pg.Client,
  heard: (text: string) => void,
  lost: (error?: Error) => void,
): Promise<NoticeListener> {
  let open = false;
  const end = (error?: Error) => {
    if (!open) return;
    open = false;
    lost(error);
  };
  client.on('error', end);
  client.on('end', () => end());
  client.on('notification', (message) => {
    if (message.payload !== undefined) heard(message.payload);
  });
  try {
    await client.connect();
    const { rows } = await client.query<{ channel: string }>(`SELECT ${CHANNEL} AS channel`);
    const channel = rows[0]?.channel;
    if (!channel) throw new Error('no channel to listen on');
    await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    open = true;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    close: async () => {
      open = false;
      await client.end().catch(() => undefined);
    },
  };
}
