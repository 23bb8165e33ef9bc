import { Value } from '@sinclair/typebox/value';
import type { ProviderPreferences } from '../core/request.js';
import { ProviderPreferencesSchema } from '../dialects/shared/routing-schema.js';
import { readProviderPreferences } from '../dialects/shared/provider-preferences.js';
import type { Store } from '../store/store.js';
import { CLI_CHANGE, recordAudit, type ChangeContext } from './audit.js';
import { bumpKeyRevision } from './key-revision.js';

/**
 * A workspace's routing defaults: a `provider` object in the request's own form, applied beneath
 * the explicit preferences of every request made with the workspace's keys.
 */
export async function setWorkspaceRoutingDefaults(store: Store, workspaceId: string, provider: unknown, context: ChangeContext = CLI_CHANGE): Promise<void> {
  if (provider !== null && !Value.Check(ProviderPreferencesSchema, provider)) {
    const first = [...Value.Errors(ProviderPreferencesSchema, provider)][0];
    throw new RangeError(`provider${first?.path.replaceAll('/', '.') ?? ''}: ${first?.message ?? 'invalid'}`);
  }
  await store.write(async (tx) => {
    const workspace = await tx.selectFrom('workspaces').select(['account_id', 'routing_defaults']).where('id', '=', workspaceId).executeTakeFirst();
    if (!workspace) throw new RangeError(`workspace: no workspace ${workspaceId}`);
    await tx
      .updateTable('workspaces')
      .set({ routing_defaults: provider === null ? null : JSON.stringify(provider) })
      .where('id', '=', workspaceId)
      .execute();
    await bumpKeyRevision(tx);
    await recordAudit(tx, context, {
      accountId: workspace.account_id,
      action: 'routing.set',
      target: workspaceId,
      before: workspace.routing_defaults === null ? null : (JSON.parse(workspace.routing_defaults) as unknown),
      after: provider,
    });
  });
}

/** The stored defaults in core form; a value that no longer reads is ignored rather than failing requests. */
export function readRoutingDefaults(stored: string | null): ProviderPreferences | undefined {
  if (stored === null) return undefined;
  try {
    const parsed: unknown = JSON.parse(stored);
    return Value.Check(ProviderPreferencesSchema, parsed) ? readProviderPreferences(parsed) : undefined;
  } catch {
    return undefined;
  }
}
