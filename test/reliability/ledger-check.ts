import { parseUsd, sumUnits } from '../../src/billing/money.js';
import { send, type Harness } from '../e2e/harness.js';

export interface LedgerReading {
  balance: bigint;
  reserved: bigint;
  /** The sum of every recorded generation's charge on the account. */
  charged: bigint;
}

/** The account's money and the charges of its generations, straight from the store. */
export async function readLedger(harness: Harness, accountId = harness.accountId): Promise<LedgerReading> {
  const db = harness.gateway.store.db;
  const account = await db.selectFrom('accounts').select(['balance_units', 'reserved_units']).where('id', '=', accountId).executeTakeFirstOrThrow();
  const costs = await db.selectFrom('generations').select('cost_units').where('account_id', '=', accountId).execute();
  return {
    balance: BigInt(account.balance_units),
    reserved: BigInt(account.reserved_units),
    charged: sumUnits(costs.map((row) => String(row.cost_units))),
  };
}

/**
 * Why the books do not balance, or undefined: nothing is held once every request settled, and the
 * credit the account started with is exactly its balance plus what its generations were charged.
 */
export async function ledgerProblem(harness: Harness, creditsUsd: string, accountId = harness.accountId): Promise<string | undefined> {
  const { balance, reserved, charged } = await readLedger(harness, accountId);
  if (reserved !== 0n) return `reserved ${reserved} after every request settled`;
  const credits = parseUsd(creditsUsd);
  if (balance + charged !== credits) return `balance ${balance} + charged ${charged} is not the credits ${credits}`;
  return undefined;
}

/** Polls until nothing is held (streams settle after their last byte), for at most `limitMs`. */
export async function untilSettled(harness: Harness, accountId = harness.accountId, limitMs = 10_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (Date.now() < until && (await readLedger(harness, accountId)).reserved !== 0n) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The public generation record, as `GET /generation?id=` renders it. */
export interface GenerationView {
  id: string;
  status: 'success' | 'error' | 'cancelled';
  streamed: boolean;
  error: { code: number; message: string } | null;
  tokens_prompt: number | null;
  tokens_completion: number | null;
  cost_usd: string;
  provider_name: string | null;
  finish_reason: string | null;
}

/** Reads a generation through the API: the record, or the status that answered instead. */
export async function readGeneration(harness: Harness, id: string, key = harness.key): Promise<{ status: number; data?: GenerationView }> {
  const reply = await send(harness, { path: `/generation?id=${encodeURIComponent(id)}`, key });
  if (reply.status !== 200) return { status: reply.status };
  return { status: 200, data: (reply.json as { data: GenerationView }).data };
}

export function costOf(view: GenerationView): bigint {
  return parseUsd(view.cost_usd);
}
