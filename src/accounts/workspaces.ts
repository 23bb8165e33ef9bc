import type { Store } from '../store/store.js';
import { recordAudit, type ChangeContext } from './audit.js';
import { newRecordId } from './record-id.js';

/** Longest workspace name accepted. */
export const WORKSPACE_NAME_MAX_LENGTH = 200;

/**
 * Adds a workspace to an account (no limit, no routing defaults) and returns its id. Throws
 * RangeError naming the field for an empty or overlong name or an unknown account. Audited as
 * `workspace.create`.
 */
export async function createWorkspace(store: Store, input: { accountId: string; name: string }, context: ChangeContext): Promise<string> {
  const name = input.name.trim();
  if (name === '') throw new RangeError('name: must not be empty');
  if (name.length > WORKSPACE_NAME_MAX_LENGTH) throw new RangeError(`name: must be at most ${WORKSPACE_NAME_MAX_LENGTH} characters`);
  const id = newRecordId('ws');
  const at = new Date();
  await store.write(async (tx) => {
    const account = await tx.selectFrom('accounts').select('id').where('id', '=', input.accountId).executeTakeFirst();
    if (!account) throw new RangeError(`account: no account ${input.accountId}`);
    await tx
      .insertInto('workspaces')
      .values({ id, account_id: input.accountId, name, routing_defaults: null, created_at: at.getTime(), limit_units: null, limit_reset: null })
      .execute();
    await recordAudit(tx, context, { accountId: input.accountId, action: 'workspace.create', target: id, before: null, after: { name } }, at);
  });
  return id;
}
