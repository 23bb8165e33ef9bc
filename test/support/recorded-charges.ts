import type { Db } from '../../src/store/store.js';

/**
 * The charges recorded in a database, one per charged generation: its record's `cost_units` (the
 * one place a charge is written), by generation id, of one account or of all.
 */
export function recordedCharges(db: Db, accountId?: string): Promise<Array<{ generation_id: string; amount_units: string }>> {
  let query = db.selectFrom('generations').select(['id as generation_id', 'cost_units as amount_units']).where('cost_units', '<>', '0');
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  return query.orderBy('id').execute();
}

/**
 * The holds open in a database (pending generations carrying a hold with an expiry: see migration
 * 0013), each its hold, generation, instance and amount, of one account or of all.
 */
export function openHolds(db: Db, accountId?: string): Promise<Array<{ id: string | null; generation_id: string; instance_id: string | null; amount_units: string | null }>> {
  let query = db
    .selectFrom('generations')
    .select(['hold_id as id', 'id as generation_id', 'instance_id', 'held_units as amount_units'])
    .where('status', '=', 'pending')
    .where('hold_expires_at', 'is not', null);
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  return query.orderBy('id').execute();
}
